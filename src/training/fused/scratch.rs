//! Buffers the fused pass takes and gives back, so a training step in the steady
//! state allocates nothing: every buffer a chunk's forward and backward pass uses
//! is a `Buf`, which comes from its thread's pool and goes back to it when
//! dropped. A step asks for the same sizes as the step before, so after the first
//! steps the pools hold all of them (a test counts allocations over 100 steps).

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

/// A type with a pool of buffers per thread.
pub trait Pooled: Copy + 'static {
    fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> Option<R>;
}

thread_local! {
    static FLOATS: RefCell<Vec<Vec<f32>>> = const { RefCell::new(Vec::new()) };
    static INDICES: RefCell<Vec<Vec<usize>>> = const { RefCell::new(Vec::new()) };
    static SPANS: RefCell<Vec<Vec<(usize, usize)>>> = const { RefCell::new(Vec::new()) };
}

macro_rules! pooled {
    ($ty:ty, $pool:ident) => {
        impl Pooled for $ty {
            fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> Option<R> {
                // None while the thread is shutting down: the buffer is then freed.
                $pool.try_with(|pool| f(&mut pool.borrow_mut())).ok()
            }
        }
    };
}
pooled!(f32, FLOATS);
pooled!(usize, INDICES);
pooled!((usize, usize), SPANS);

/// A vector on loan from its thread's pool (derefs to `Vec<T>`).
pub struct Buf<T: Pooled>(Vec<T>);

impl<T: Pooled> Buf<T> {
    /// An empty buffer that can hold `capacity` values without growing: the
    /// smallest pooled one that fits, else the largest (grown), else a new one.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut v = Self::take(capacity);
        v.clear();
        v.reserve(capacity);
        Buf(v)
    }

    /// The pooled vector `with_capacity` lends, as it was given back (values and
    /// length kept).
    fn take(capacity: usize) -> Vec<T> {
        let taken = T::with_pool(|pool| {
            let fits = pool.iter().enumerate().filter(|(_, v)| v.capacity() >= capacity).min_by_key(|(_, v)| v.capacity()).map(|(i, _)| i);
            let pick = fits.or_else(|| pool.iter().enumerate().max_by_key(|(_, v)| v.capacity()).map(|(i, _)| i));
            pick.map(|i| pool.swap_remove(i))
        });
        taken.flatten().unwrap_or_default()
    }

    /// An empty buffer that holds nothing (no loan, no allocation).
    pub fn empty() -> Self {
        Buf(Vec::new())
    }

    /// `len` values for the caller to overwrite, every one, before reading any:
    /// whatever a pooled buffer held (its values are not cleared, which is the
    /// point), zeros past its old length.
    pub fn overwritten(len: usize) -> Self
    where
        T: Default,
    {
        let mut v = Self::take(len);
        v.resize(len, T::default()); // shortens, or zeros what the old values do not cover
        Buf(v)
    }

    /// `len` copies of `value`.
    pub fn filled(len: usize, value: T) -> Self {
        let mut b = Self::with_capacity(len);
        b.0.resize(len, value);
        b
    }

    /// The values of `iter` (sized by its upper bound when it has one).
    pub fn collect(iter: impl IntoIterator<Item = T>) -> Self {
        let iter = iter.into_iter();
        let (low, high) = iter.size_hint();
        let mut b = Self::with_capacity(high.unwrap_or(low));
        b.0.extend(iter);
        b
    }

    /// A copy of `values`.
    pub fn copy_of(values: &[T]) -> Self {
        let mut b = Self::with_capacity(values.len());
        b.0.extend_from_slice(values);
        b
    }
}

impl<T: Pooled> Drop for Buf<T> {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        if v.capacity() > 0 {
            T::with_pool(|pool| pool.push(v));
        }
    }
}

impl<T: Pooled> Deref for Buf<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Pooled> DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<'a, T: Pooled> IntoIterator for &'a Buf<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// `0, 1, …, n - 1`.
pub fn iota(n: usize) -> Buf<usize> {
    Buf::collect(0..n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_given_back_is_lent_again_without_allocating() {
        let first = Buf::<f32>::filled(1000, 1.0);
        let at = first.as_ptr();
        drop(first);
        let again = Buf::<f32>::filled(600, 0.0);
        assert_eq!(again.as_ptr(), at, "the pooled buffer is reused");
        assert!(again.iter().all(|v| *v == 0.0) && again.len() == 600);
        let other = Buf::<f32>::filled(10, 2.0);
        assert_ne!(other.as_ptr(), at, "a buffer on loan is not lent twice");
    }

    /// A buffer to be overwritten keeps a pooled buffer's old values (no pass to
    /// clear them) and zeros only what they do not cover.
    #[test]
    fn a_buffer_to_overwrite_is_lent_as_it_was_given_back() {
        let mut first = Buf::<f32>::filled(100, 0.0);
        first.iter_mut().for_each(|v| *v = 7.0);
        let at = first.as_ptr();
        drop(first);
        let shorter = Buf::<f32>::overwritten(60);
        assert_eq!(shorter.as_ptr(), at, "the pooled buffer is reused");
        assert!(shorter.len() == 60 && shorter.iter().all(|v| *v == 7.0), "its values were not cleared");
        drop(shorter);
        let longer = Buf::<f32>::overwritten(80);
        assert_eq!(longer.as_ptr(), at, "the pooled buffer is reused");
        assert!(longer.len() == 80 && longer[..60].iter().all(|v| *v == 7.0) && longer[60..].iter().all(|v| *v == 0.0), "zeros past the old values");
    }
}
