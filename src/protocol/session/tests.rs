//! The session's own unit tests: the dead-search fallback, the CECP hooks, the end-of-search
//! wake-up.

use super::*;
use std::io::Write;
use std::sync::mpsc::channel;

/// An output that keeps what was written.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A UCI session writing into `cap`, and the channel its loop would read.
fn session(cap: &Capture) -> (Session, Receiver<Event>) {
    let (wake, rx) = channel();
    (Session::new(Arc::new(super::super::uci::Uci::default()), Output::new(cap.clone()), wake), rx)
}

/// A "search" with no thread behind it; `ended` and `done` as given.
fn running(root: &[Move], ended: bool, done: bool) -> Running {
    Running {
        pos: Position::startpos(),
        root: root.to_vec(),
        pondering: false,
        stop_sent: false,
        done: Arc::new(AtomicBool::new(done)),
        silent: Arc::default(),
        ended: Arc::new(AtomicBool::new(ended)),
    }
}

#[test]
fn a_search_that_died_silently_still_gets_a_move() {
    let cap = Capture::default();
    let (mut s, _rx) = session(&cap);
    let root = Position::startpos().legal_moves().to_vec();
    // Still running: nothing to do.
    s.search = Some(running(&root, false, false));
    s.check_ended();
    assert!(cap.0.lock().unwrap().is_empty() && s.search.is_some());
    // Ended (as if its thread had panicked) without a move: the session announces one.
    let r = running(&root, true, false);
    let done = r.done.clone();
    s.search = Some(r);
    s.check_ended();
    let text = String::from_utf8(cap.0.lock().unwrap().clone()).unwrap();
    assert_eq!(
        text,
        format!("info string error: the search ended without a move; playing a fallback\nbestmove {}\n", root[0])
    );
    assert!(s.search.is_none() && done.load(Ordering::SeqCst));
    // A search that did report is not announced twice.
    s.search = Some(running(&root, true, true));
    let before = cap.0.lock().unwrap().len();
    s.check_ended();
    s.finish_search();
    assert_eq!(cap.0.lock().unwrap().len(), before);
}

#[test]
fn cecp_hooks_return_each_announced_move_once() {
    let cap = Capture::default();
    let (mut s, rx) = session(&cap);
    let root = Position::startpos().legal_moves().to_vec();
    // A real search, stopped: its end wakes the loop, and its move is handed over exactly once.
    s.go(Go { infinite: true, ..Go::default() }).unwrap();
    assert!(s.thinking() && s.take_finished().is_none());
    s.stop_search();
    assert_eq!(s.next_input(&rx), None, "the search's end wakes the loop");
    let d = s.take_finished().expect("the move");
    assert!(d.best.is_some_and(|m| root.contains(&m)));
    assert!(s.take_finished().is_none() && !s.thinking());
    // An abandoned search reports nothing and hands nothing over.
    s.go(Go { infinite: true, ..Go::default() }).unwrap();
    let before = cap.0.lock().unwrap().len();
    s.abandon_search();
    assert!(s.take_finished().is_none() && !s.thinking());
    let after = String::from_utf8(cap.0.lock().unwrap()[before..].to_vec()).unwrap();
    assert!(!after.contains("bestmove"), "{after}");
    // Its end still comes through (late wake-ups are harmless).
    assert_eq!(rx.recv().ok(), Some(Event::SearchEnded));
}

#[test]
fn the_debug_line_shows_the_searchs_own_hard_limit() {
    let cap = Capture::default();
    let (s, _rx) = session(&cap);
    let l = Limits { time_ms: Some(60_000), inc_ms: 1000, move_overhead_ms: 30, ..Default::default() };
    let hard = s.engine.hard_limit_ms(&l).expect("a clock has a hard limit");
    assert!(hard < 60_000 - 30);
    assert!(s.debug_go(44, &l).contains(&format!("hard cap {hard} ms")), "{}", s.debug_go(44, &l));
    assert!(!s.debug_go(44, &Limits { depth: Some(8), ..Default::default() }).contains("hard cap"));
}
