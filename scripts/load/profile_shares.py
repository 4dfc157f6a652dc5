#!/usr/bin/env python3
"""Shares of a server profile by thread and by what the samples do.

Reads `perf script -F comm,ip,sym,dso` of a `perf record -g` of `koma serve` on standard input and
prints the share of the samples of each thread, then of each category: a kernel sample by the system
call (or softirq, or scheduling) its call chain passes through, a user sample by the crate of its leaf
function (SQLite's C code and malloc/free by name). docs/performance.md ("CPU per move") gives the
command and the figures:

    perf script -i perf.data -F comm,ip,sym,dso | python3 scripts/load/profile_shares.py
"""
import sys, re, collections
cats = collections.Counter(); threads = collections.Counter(); total = 0
def classify(frames):
    # frames: list of (sym, dso), leaf first
    leaf_sym, leaf_dso = frames[0] if frames else ('?', '?')
    syms = [f[0] for f in frames]
    joined = ' '.join(syms)
    if 'kernel' in leaf_dso:
        for name, key in [('fsync', 'fsync'), ('futex', 'futex'), ('epoll_wait', 'epoll_wait'),
                          ('sendto', 'sendto'), ('recvfrom', 'recvfrom'), ('pwrite', 'pwrite64'), ('pread', 'pread64'),
                          ('fcntl', 'fcntl'), ('sys_write', 'write'), ('sys_read', 'read'), ('writev', 'writev'),('sys_munmap','munmap'),('madvise','madvise'),('mprotect','mprotect')]:
            if key in joined:
                return 'kernel: ' + name
        if 'asm_sysvec' in joined or 'irq' in joined or 'softirq' in joined:
            return 'kernel: interrupts/softirq'
        if 'schedule' in joined or 'exit_to_user_mode' in joined:
            return 'kernel: scheduling (other)'
        return 'kernel: other'
    s = leaf_sym
    if leaf_dso.startswith('libc') or s.startswith('_int_') or 'malloc' in s or 'free' in s or s.startswith('__mem') or s.startswith('__str'):
        # find first non-libc frame
        for sym, dso in frames[1:]:
            if not dso.startswith('libc'):
                if sym.startswith('sqlite3') or sym.startswith('pcache') or sym.startswith('wal'):
                    return 'user: sqlite (C)'
                break
        if 'malloc' in s or 'free' in s or s.startswith('_int_') or 'consolidate' in s or 'unlink_chunk' in s:
            return 'user: malloc/free'
        return 'user: libc other'
    if re.match(r'(sqlite3|pcache|wal|btree|vdbe|pager)', s, re.I) and '::' not in s:
        return 'user: sqlite (C)'
    m = re.match(r'[<]*(?:&)?(?:mut )?([a-z_0-9]+)::', s)
    crate = m.group(1) if m else s[:30]
    groups = {'tokio':'tokio','sqlx_sqlite':'sqlx','sqlx_core':'sqlx','rusqlite':'rusqlite','hyper':'hyper/http','hyper_util':'hyper/http','http':'hyper/http','httparse':'hyper/http','axum':'axum','axum_core':'axum','serde_json':'serde_json','serde':'serde_json','tungstenite':'tungstenite','tokio_tungstenite':'tungstenite','rules':'rules','notation':'notation','server':'server','store':'store','futures_util':'futures','futures_core':'futures','futures_channel':'futures','futures_intrusive':'futures','flume':'sqlx','core':'core/alloc','alloc':'core/alloc','std':'std','tower':'tower','tracing':'tracing','sha1_smol':'sha1','bytes':'bytes'}
    return 'user: ' + groups.get(crate, 'other (' + crate + ')')
cur=None
def flush():
    global total
    if cur is None: return
    comm, frames = cur
    total += 1
    threads[comm] += 1
    cats[classify(frames)] += 1
for line in sys.stdin:
    if not line.strip():
        flush(); cur=None; continue
    if not line.startswith((' ', '\t')):
        flush()
        comm = line.split()[0]
        cur = (comm, [])
    else:
        parts = line.strip().split(None, 1)
        if len(parts) < 2: continue
        rest = parts[1]
        m = re.match(r'(.*) \((.*)\)$', rest)
        if m:
            sym, dso = m.group(1), m.group(2).split('/')[-1]
            sym = re.sub(r'\+0x[0-9a-f]+$', '', sym)
            cur[1].append((sym, dso))
flush()
print('samples', total)
for k, v in threads.most_common(): print(f'{100*v/total:5.1f}%  thread {k}')
for k, v in cats.most_common(40): print(f'{100*v/total:5.1f}%  {k}')
