//! The user's signals to a running search, `stop` and `ponderhit`: what the engine raises and
//! the main search thread polls. It reads nothing else of the search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

/// The user's signals to a search: flags the main thread polls, and a condition variable
/// thread 0 waits on when its search has finished before it may end (ponder, infinite).
#[derive(Default)]
pub(crate) struct Control {
    stop: AtomicBool,
    ponderhit: AtomicBool,
    lock: Mutex<()>,
    raised: Condvar,
}

impl Control {
    /// Clears both signals for a new search (call while no search runs).
    pub fn reset(&self) {
        self.stop.store(false, Ordering::SeqCst);
        self.ponderhit.store(false, Ordering::SeqCst);
    }

    /// The user's `stop`.
    pub fn stop(&self) {
        self.raise(&self.stop);
    }

    /// The pondered move was played.
    pub fn ponderhit(&self) {
        self.raise(&self.ponderhit);
    }

    /// Sets `flag`, then wakes a waiting thread 0 (under the lock, so the wake cannot fall
    /// between its check and its wait).
    fn raise(&self, flag: &AtomicBool) {
        flag.store(true, Ordering::SeqCst);
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.raised.notify_all();
    }

    /// Whether `stop` came.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether `ponderhit` came.
    #[inline]
    pub fn ponderhit_came(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }

    /// Blocks a search that finished early until it may end: a ponder search until
    /// `ponderhit` or `stop`, an infinite one until `stop`.
    pub fn hold(&self, pondering: bool, infinite: bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while (pondering && !self.ponderhit.load(Ordering::SeqCst) || infinite) && !self.stop.load(Ordering::SeqCst) {
            guard = self.raised.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}
