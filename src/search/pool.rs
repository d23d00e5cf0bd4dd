//! The search threads: one per `Threads`, started once and parked between searches on their
//! job channels (no thread is spawned per search, nothing polls). Each keeps its histories and
//! corrections (`ThreadTables`) from search to search until a new game. Thread 0 runs the
//! driver; the others are its Lazy SMP helpers.

use super::driver;
use super::job::{Job, MainJob};
use super::outcome::Report;
use super::worker::ThreadTables;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

/// One parked thread.
struct Thread {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

/// The engine's search threads (none until the first search).
#[derive(Default)]
pub(crate) struct Pool {
    threads: Vec<Thread>,
}

impl Pool {
    /// Starts or ends threads until there are `n` (call while no search runs; ended threads
    /// take their histories with them).
    pub fn resize(&mut self, n: usize) {
        while self.threads.len() > n {
            let t = self.threads.pop().expect("more threads than wanted");
            drop(t.jobs);
            let _ = t.handle.join();
        }
        while self.threads.len() < n {
            let id = self.threads.len();
            let (jobs, inbox) = channel();
            let spawned =
                std::thread::Builder::new().name(format!("chuhe-search-{id}")).spawn(move || serve(id, inbox));
            match spawned {
                Ok(handle) => self.threads.push(Thread { jobs, handle }),
                // Fewer helpers search; thread 0 must exist, as `std::thread::spawn` demands.
                Err(e) if id > 0 => {
                    eprintln!("chuhe: search thread {id} not started: {e}");
                    return;
                }
                Err(e) => panic!("chuhe: the search thread could not be started: {e}"),
            }
        }
    }

    /// Whether any thread runs (a search has started).
    pub fn started(&self) -> bool {
        !self.threads.is_empty()
    }

    /// Hands `job` to thread 0 (a job it cannot take is dropped: its result never comes).
    pub fn run(&self, job: MainJob) {
        let Some((main, helpers)) = self.threads.split_first() else { return };
        let helpers = helpers.iter().map(|t| t.jobs.clone()).collect();
        let _ = main.jobs.send(Job::Main(Box::new(job), helpers));
    }

    /// Every thread forgets its histories (they run it after any search in hand).
    pub fn forget(&self) {
        for t in &self.threads {
            let _ = t.jobs.send(Job::Forget);
        }
    }
}

impl Drop for Pool {
    /// Ends the threads (the engine has stopped its search first).
    fn drop(&mut self) {
        self.resize(0);
    }
}

/// A pool thread: runs its jobs as they come, parked in between, until the pool drops its
/// sender. A job that panics is dropped with the thread's tables; the thread serves on.
fn serve(id: usize, inbox: Receiver<Job>) {
    let mut tables: Option<ThreadTables> = None;
    for job in inbox {
        let kept = tables.take();
        tables = catch_unwind(AssertUnwindSafe(|| work(id, job, kept))).unwrap_or(None);
    }
}

/// Runs one job with the thread's tables; returns the tables to keep.
fn work(id: usize, job: Job, tables: Option<ThreadTables>) -> Option<ThreadTables> {
    match job {
        Job::Forget => None,
        Job::Helper { search, done } => {
            let (completed, tables) = driver::help(id, &search, tables);
            let _ = done.send((id, completed));
            Some(tables)
        }
        Job::Main(job, helpers) => {
            let MainJob { tt, control, request, settings, mut report, result } = *job;
            let (found, tables) =
                driver::run_search(tt, control.clone(), &request, &settings, tables, &helpers, &mut report);
            control.hold(request.limits.pondering, request.limits.infinite);
            report(Report::Done(found.clone()));
            let _ = result.send(found);
            Some(tables)
        }
    }
}
