//! Rate limits on WebSocket frames: token buckets per socket, and shared ones
//! per seat token and per IP address, so that opening more sockets buys no
//! more frames.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::Config;
use crate::error::ApiError;

/// Frames one sender may still send: refilled at `rate` per second, holding
/// at most `rate` (the burst).
#[derive(Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    pub(crate) fn full(rate: u32) -> Bucket {
        Bucket {
            tokens: f64::from(rate),
            last: Instant::now(),
        }
    }

    fn refill(&mut self, rate: u32, now: Instant) {
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * f64::from(rate)).min(f64::from(rate));
        self.last = now;
    }

    /// Takes one frame's token if there is one.
    fn take(&mut self, rate: u32, now: Instant) -> bool {
        self.refill(rate, now);
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }

    fn is_full(&mut self, rate: u32, now: Instant) -> bool {
        self.refill(rate, now);
        self.tokens >= f64::from(rate)
    }
}

/// How often full buckets are forgotten.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// Buckets by key, all at one rate. A full bucket is the same as none, so
/// full ones are dropped now and then: the map holds only recent senders.
#[derive(Debug)]
struct SharedBuckets<K> {
    rate: u32,
    buckets: Mutex<(HashMap<K, Bucket>, Instant)>,
}

impl<K: std::hash::Hash + Eq> SharedBuckets<K> {
    fn new(rate: u32) -> SharedBuckets<K> {
        SharedBuckets {
            rate,
            buckets: Mutex::new((HashMap::new(), Instant::now() + SWEEP_EVERY)),
        }
    }

    /// Takes one frame's token from `key`'s bucket. The key is copied only
    /// for a sender the map does not hold yet: a seat token's frames are a
    /// playing socket's every move.
    fn take<Q>(&self, key: &Q, now: Instant) -> bool
    where
        K: Borrow<Q>,
        Q: std::hash::Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let rate = self.rate;
        let mut guard = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let (buckets, next_sweep) = &mut *guard;
        if now >= *next_sweep {
            buckets.retain(|_, bucket| !bucket.is_full(rate, now));
            *next_sweep = now + SWEEP_EVERY;
        }
        if let Some(bucket) = buckets.get_mut(key) {
            return bucket.take(rate, now);
        }
        buckets
            .entry(key.to_owned())
            .or_insert(Bucket {
                tokens: f64::from(rate),
                last: now,
            })
            .take(rate, now)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0
            .len()
    }
}

/// The frame limits every socket shares.
#[derive(Debug)]
pub(crate) struct FrameLimits {
    per_socket: u32,
    tokens: SharedBuckets<String>,
    addresses: SharedBuckets<IpAddr>,
}

impl FrameLimits {
    pub(crate) fn new(config: &Config) -> FrameLimits {
        FrameLimits {
            per_socket: config.messages_per_second,
            tokens: SharedBuckets::new(config.messages_per_second),
            addresses: SharedBuckets::new(config.messages_per_second_per_ip),
        }
    }

    /// A bucket for a new socket.
    pub(crate) fn socket(&self) -> Bucket {
        Bucket::full(self.per_socket)
    }

    /// Counts one frame from `socket` (sent with `token`, from `ip`) against
    /// every limit it is under.
    ///
    /// # Errors
    /// [`ApiError::TooMany`] naming the limit reached.
    pub(crate) fn frame(
        &self,
        socket: &mut Bucket,
        token: Option<&str>,
        ip: IpAddr,
    ) -> Result<(), ApiError> {
        let too_many = |rate: u32, whose: &str| {
            Err(ApiError::TooMany(format!(
                "at most {rate} messages per second per {whose}"
            )))
        };
        let now = Instant::now();
        if !socket.take(self.per_socket, now) {
            return too_many(self.per_socket, "socket");
        }
        if let Some(token) = token {
            if !self.tokens.take(token, now) {
                return too_many(self.tokens.rate, "seat token");
            }
        }
        if !self.addresses.take(&ip, now) {
            return too_many(self.addresses.rate, "address");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let mut bucket = Bucket::full(4);
        let now = Instant::now();
        assert_eq!((0..6).filter(|_| bucket.take(4, now)).count(), 4);
        let later = now + Duration::from_millis(500);
        assert_eq!((0..6).filter(|_| bucket.take(4, later)).count(), 2);
    }

    #[test]
    fn full_buckets_are_forgotten() {
        let shared = SharedBuckets::<u32>::new(2);
        let now = Instant::now();
        for key in 0..100 {
            assert!(shared.take(&key, now));
        }
        assert_eq!(shared.len(), 100);
        assert!(shared.take(&1000, now + SWEEP_EVERY));
        assert_eq!(shared.len(), 1);
    }

    #[test]
    fn a_key_keeps_its_bucket_across_frames() {
        let tokens = SharedBuckets::<String>::new(2);
        let now = Instant::now();
        let taken = (0..3).filter(|_| tokens.take("seat token", now)).count();
        assert_eq!((taken, tokens.len()), (2, 1));
        assert!(tokens.take("another token", now));
        assert_eq!(tokens.len(), 2);
    }
}
