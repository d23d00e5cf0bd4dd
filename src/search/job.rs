//! What a search thread is asked to do (`Job`): the whole search for thread 0 (`MainJob`), a
//! helper's part of one, or forgetting its tables for a new game.

use super::control::Control;
use super::outcome::{Report, SearchResult};
use super::request::{SearchRequest, Settings};
use super::tt::TranspositionTable;
use super::worker::{Completed, SearchJob};
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// A whole search for thread 0.
pub(crate) struct MainJob {
    pub tt: Arc<TranspositionTable>,
    pub control: Arc<Control>,
    pub request: SearchRequest,
    pub settings: Settings,
    /// Called from thread 0; its last call is `Report::Done`. Dropped when the job ends.
    pub report: Box<dyn FnMut(Report) + Send>,
    /// Where the result goes (after `Report::Done`).
    pub result: Sender<SearchResult>,
}

/// What a search thread is asked to do.
pub(crate) enum Job {
    /// Thread 0: run a search with the helpers given.
    Main(Box<MainJob>, Vec<Sender<Job>>),
    /// A helper: search beside thread 0, then send back its last completed line.
    Helper {
        /// The search.
        search: Arc<SearchJob>,
        /// Where the line goes, with the thread's id.
        done: Sender<(usize, Completed)>,
    },
    /// A new game: forget the histories.
    Forget,
}
