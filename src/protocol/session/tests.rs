//! The session's own unit tests: the dead-search fallback, the CECP hooks, the hard cap.

use super::*;
use std::io::Write;

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

#[test]
fn a_search_that_died_silently_still_gets_a_move() {
    let cap = Capture::default();
    let mut s = Session::new(Arc::new(super::super::uci::Uci::default()), Output::new(cap.clone()));
    let pos = Position::startpos();
    let root = pos.legal_moves().to_vec();
    let done = Arc::new(AtomicBool::new(false));
    // A "search" with no thread behind it, as if its thread had panicked.
    s.search = Some(Running {
        pos,
        root: root.clone(),
        dead_polls: 0,
        limits: Limits::default(),
        pondering: false,
        deadline: None,
        stop_sent: false,
        done: done.clone(),
        silent: Arc::default(),
    });
    s.check_alive();
    assert!(cap.0.lock().unwrap().is_empty(), "one poll is not enough");
    s.check_alive();
    let text = String::from_utf8(cap.0.lock().unwrap().clone()).unwrap();
    assert_eq!(
        text,
        format!("info string error: the search ended without a move; playing a fallback\nbestmove {}\n", root[0])
    );
    assert!(s.search.is_none() && done.load(Ordering::SeqCst));
    // A search that did report is not announced twice.
    let done = Arc::new(AtomicBool::new(true));
    s.search = Some(Running {
        pos: Position::startpos(),
        root,
        dead_polls: 0,
        limits: Limits::default(),
        pondering: false,
        deadline: None,
        stop_sent: true,
        done,
        silent: Arc::default(),
    });
    let before = cap.0.lock().unwrap().len();
    s.finish_search();
    assert_eq!(cap.0.lock().unwrap().len(), before);
}

#[test]
fn cecp_hooks_return_each_announced_move_once() {
    let cap = Capture::default();
    let mut s = Session::new(Arc::new(super::super::uci::Uci::default()), Output::new(cap.clone()));
    let root = Position::startpos().legal_moves().to_vec();
    // A real search, stopped: its move is announced and handed over exactly once.
    s.go(Go { infinite: true, ..Go::default() }).unwrap();
    assert!(s.thinking() && s.take_finished().is_none());
    s.stop_search();
    let d = loop {
        if let Some(d) = s.take_finished() {
            break d;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(d.best.is_some_and(|m| root.contains(&m)));
    assert!(s.take_finished().is_none() && !s.thinking());
    // An abandoned search reports nothing and hands nothing over.
    s.go(Go { infinite: true, ..Go::default() }).unwrap();
    let before = cap.0.lock().unwrap().len();
    s.abandon_search();
    assert!(s.take_finished().is_none() && !s.thinking());
    let after = String::from_utf8(cap.0.lock().unwrap()[before..].to_vec()).unwrap();
    assert!(!after.contains("bestmove"), "{after}");
}

#[test]
fn hard_limits() {
    let mut l = Limits { time_ms: Some(10_000), move_overhead_ms: 30, ..Default::default() };
    assert_eq!(hard_limit_ms(&l), Some(4985));
    l.movestogo = Some(1);
    assert_eq!(hard_limit_ms(&l), Some(8973));
    l.movetime_ms = Some(100);
    assert_eq!(hard_limit_ms(&l), Some(100));
    l.time_ms = Some(10);
    assert_eq!(hard_limit_ms(&l), Some(0));
    assert_eq!(hard_limit_ms(&Limits::default()), None);
}
