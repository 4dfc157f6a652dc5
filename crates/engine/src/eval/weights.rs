//! Weight tables as named fields that also read as one flat list of
//! numbers: the evaluation reads the fields, the tuner the list.

/// A field of a weight table: one number, or an array of fields (so
/// tables of tables too).
pub(super) trait Field: Sized {
    /// Appends the field's numbers, and their names after `name`.
    fn flatten(&self, name: &str, names: &mut Vec<String>, values: &mut Vec<i32>);
    /// The field with its numbers taken from `values` (kept where it runs out).
    fn unflatten(&self, values: &mut dyn Iterator<Item = i32>) -> Self;
}

impl Field for i32 {
    fn flatten(&self, name: &str, names: &mut Vec<String>, values: &mut Vec<i32>) {
        names.push(name.to_owned());
        values.push(*self);
    }

    fn unflatten(&self, values: &mut dyn Iterator<Item = i32>) -> i32 {
        values.next().unwrap_or(*self)
    }
}

impl<F: Field, const N: usize> Field for [F; N] {
    fn flatten(&self, name: &str, names: &mut Vec<String>, values: &mut Vec<i32>) {
        for (index, value) in self.iter().enumerate() {
            value.flatten(&format!("{name}[{index}]"), names, values);
        }
    }

    fn unflatten(&self, values: &mut dyn Iterator<Item = i32>) -> [F; N] {
        core::array::from_fn(|index| self[index].unflatten(values))
    }
}

/// Declares a weight table: a struct of `i32` fields and arrays of them with
/// `names`, `values` and `with_values` over its flat list of numbers.
macro_rules! weights {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$field_meta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl $name {
            /// The names and the numbers of the table, in declaration order.
            fn flat(&self) -> (Vec<String>, Vec<i32>) {
                let (mut names, mut values) = (Vec::new(), Vec::new());
                $($crate::eval::weights::Field::flatten(
                    &self.$field,
                    stringify!($field),
                    &mut names,
                    &mut values,
                );)*
                (names, values)
            }

            /// The table with the numbers of `values`, in the order of `flat`.
            fn with_values(&self, values: &[i32]) -> $name {
                let mut values = values.iter().copied();
                $name {
                    $($field: $crate::eval::weights::Field::unflatten(&self.$field, &mut values),)*
                }
            }
        }
    };
}
