//! The CECP state machine: which side the engine plays (`go`, `playother`, `force`), its own
//! game (`usermove`, `undo`, `remove`, `setboard`), pondering on its own (`hard`), analyze
//! mode and game-end claims, over the shared [`Session`] (search start/stop, options, output).

use super::super::command::{Command, Go};
use super::super::session::{Driver, Flow, Session};
use super::super::{Event, Output, Replies};
use super::claims::{claim, claimable};
use super::clock::Clock;
use super::command::{parse, Cmd};
use super::replies::{illegal_move, refusal, Xboard};
use crate::board::{Color, Move, Position};
use crate::rules::Game;
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// The CECP session state on top of the shared [`Session`].
pub struct Cecp {
    s: Session,
    x: Arc<Xboard>,
    /// Neither side is played by the engine.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    /// A claim or `result` ended the game: think no more until the position changes.
    game_over: bool,
    analyzing: bool,
    /// `hard`: ponder after our move.
    may_ponder: bool,
    /// The guessed reply, played in the session's game, while a ponder search runs on it.
    pondering: Option<Move>,
    clock: Clock,
    /// A `draw` offer from the opponent, for the next search.
    draw_offered: bool,
}

impl Driver for Cecp {
    fn session(&mut self) -> &mut Session {
        &mut self.s
    }

    /// Plays the move of a search that has just finished.
    fn settle(&mut self) {
        self.collect();
    }

    fn handle(&mut self, line: &str) -> Flow {
        match parse(line) {
            Ok(cmd) => self.execute(cmd),
            Err(reply) => {
                self.out(&reply);
                Flow::Continue
            }
        }
    }

    /// A running search is dropped without a move.
    fn end_of_input(&mut self) {
        self.s.abandon_search();
    }
}

impl Cecp {
    /// A session at the start position; the engine plays Black. `wake` sends into the
    /// channel the loop reads.
    pub fn new(out: Output, wake: Sender<Event>) -> Cecp {
        let x = Arc::new(Xboard::default());
        Cecp {
            s: Session::new(x.clone(), out, wake),
            x,
            force: false,
            engine_side: Color::Black,
            game_over: false,
            analyzing: false,
            may_ponder: false,
            pondering: None,
            clock: Clock::default(),
            draw_offered: false,
        }
    }

    fn out(&self, line: &str) {
        self.s.out().line(line);
    }

    /// Executes one command.
    fn execute(&mut self, cmd: Cmd) -> Flow {
        match cmd {
            Cmd::Nothing => {}
            Cmd::Status if self.analyzing => {
                let total = self.s.game().position().legal_moves().len() as u32;
                self.out(&self.x.stat01(total));
            }
            Cmd::Status => {}
            // A tab-indented line, then a blank line ends the answer.
            Cmd::Book => self.s.out().lines(&self.s.book_listing()),
            Cmd::Features => self.s.out().lines(&self.x.handshake()),
            Cmd::Ping(n) => self.out(&format!("pong {n}")),
            Cmd::New => self.new_game(),
            Cmd::SetBoard(p) => self.set_position(Game::new(*p)),
            Cmd::UserMove(m, text) => self.usermove(m, &text),
            Cmd::Go => self.go(),
            Cmd::PlayOther => {
                self.cancel_ponder();
                self.force = false;
                self.engine_side = self.side_to_move().opp();
            }
            Cmd::Force => {
                if !self.analyzing {
                    self.halt();
                }
                self.force = true;
            }
            Cmd::MoveNow => {
                if self.s.thinking() && !self.s.pondering() && !self.analyzing {
                    self.s.stop_search();
                }
            }
            Cmd::Draw => self.draw_offered = true,
            Cmd::Result => {
                self.halt();
                self.game_over = true;
            }
            Cmd::TakeBack { plies, name } => self.take_back(plies, name),
            Cmd::Level(l) => self.clock.set_level(l),
            Cmd::MoveTime(ms) => self.clock.set_move_time(ms),
            Cmd::Depth(d) => self.clock.set_depth(d),
            Cmd::Time(ms) => self.clock.set_own(ms),
            Cmd::Post(on) => self.x.set_post(on),
            Cmd::Ponder(on) => {
                self.may_ponder = on;
                if !on {
                    self.cancel_ponder();
                }
            }
            Cmd::Analyze => {
                self.cancel_ponder();
                self.analyzing = true;
                self.x.set_post(true);
                self.analyze();
            }
            Cmd::Exit => {
                if self.analyzing {
                    self.s.abandon_search();
                    self.analyzing = false;
                }
            }
            Cmd::Shared(c) => return self.shared(c),
        }
        Flow::Continue
    }

    /// A shared command, run by the session once nothing it must not disturb runs.
    fn shared(&mut self, c: Command) -> Flow {
        let option = matches!(c, Command::SetOption { .. });
        match c {
            Command::Quit => self.halt(),
            // Options change the engine, which must be idle: a ponder or analysis search is
            // stopped (an analysis restarts after); our own thinking is left alone (the
            // session refuses).
            Command::SetOption { .. } => {
                self.cancel_ponder();
                if self.analyzing {
                    self.s.abandon_search();
                }
            }
            _ => self.cancel_ponder(),
        }
        let flow = self.s.execute(c);
        if option && self.analyzing {
            self.analyze();
        }
        flow
    }

    fn side_to_move(&self) -> Color {
        self.s.game().position().side_to_move()
    }

    /// Plays the move of a search that has just finished, claims a game end, starts pondering.
    fn collect(&mut self) {
        let Some(d) = self.s.take_finished() else { return };
        if self.pondering.is_some() || self.analyzing {
            return; // a ponder or analysis search never ends by itself; nothing to play
        }
        if d.resign {
            self.game_over = true;
            return;
        }
        let Some(m) = d.best else { return };
        let mut game = self.s.game().clone();
        if game.play(m).is_err() {
            return; // cannot happen: the move came from this position's root moves
        }
        self.s.set_game(game);
        self.clock.moved();
        if self.claim_end() {
            return;
        }
        if self.may_ponder && !self.force {
            if let Some(guess) = d.ponder_move {
                self.start_ponder(guess);
            }
        }
    }

    /// Claims the game's end if the rules say it is over (see [`claimable`]).
    fn claim_end(&mut self) -> bool {
        let Some(v) = claimable(self.s.game()) else { return false };
        self.out(&claim(&v));
        self.game_over = true;
        true
    }

    /// The search parameters for our move now (a ponder search uses the same ones).
    fn limits(&self) -> Go {
        Go { draw_offer: self.draw_offered, ..self.clock.limits(self.s.game().moves().len()) }
    }

    /// Our turn: claim a finished game, else think.
    fn think(&mut self) {
        if self.claim_end() {
            return;
        }
        let go = self.limits();
        self.draw_offered = false;
        self.clock.start();
        if let Err(e) = self.s.go(go) {
            self.s.error(&e);
        }
    }

    fn start_ponder(&mut self, guess: Move) {
        let mut game = self.s.game().clone();
        if game.play(guess).is_err() || claimable(&game).is_some() {
            return;
        }
        self.s.set_game(game);
        let go = Go { pondering: true, ..self.limits() };
        match self.s.go(go) {
            Ok(()) => self.pondering = Some(guess),
            Err(e) => self.s.error(&e),
        }
    }

    /// Stops pondering and takes the guessed move back.
    fn cancel_ponder(&mut self) {
        if self.pondering.take().is_some() {
            self.s.abandon_search();
            let n = self.s.game().moves().len();
            self.rewind(n - 1);
        }
    }

    /// Stops whatever runs (ponder, analysis or our own thinking) without playing its move.
    fn halt(&mut self) {
        self.cancel_ponder();
        self.s.abandon_search();
        self.clock.cancel();
    }

    /// Keeps the first `n` moves of the game.
    fn rewind(&mut self, n: usize) {
        let old = self.s.game();
        let mut game = Game::new(old.start().clone());
        for &m in &old.moves()[..n] {
            let _ = game.play(m);
        }
        self.s.set_game(game);
    }

    /// (Re)starts the analysis search on the current position.
    fn analyze(&mut self) {
        self.s.abandon_search();
        self.x.reset_status();
        if !self.s.game().position().has_legal_move() {
            return;
        }
        if let Err(e) = self.s.go(Go { infinite: true, ..Go::default() }) {
            self.s.error(&e);
        }
    }

    /// After the position changed under an analysis: analyse the new one.
    fn position_changed(&mut self) {
        self.game_over = false;
        if self.analyzing {
            self.analyze();
        }
    }

    /// `new`: the start position, the engine plays Black, a fresh table and clock.
    fn new_game(&mut self) {
        self.halt();
        self.s.new_game();
        self.force = false;
        self.engine_side = Color::Black;
        self.clock.new_game();
        self.draw_offered = false;
        self.set_position(Game::new(Position::startpos()));
    }

    /// `setboard` (and `new`): a new game from here.
    fn set_position(&mut self, game: Game) {
        self.halt();
        self.s.set_game(game);
        self.position_changed();
    }

    /// `go`: play the side to move, now.
    fn go(&mut self) {
        self.cancel_ponder();
        if self.s.thinking() || self.analyzing {
            return;
        }
        self.force = false;
        self.game_over = false;
        self.engine_side = self.side_to_move();
        self.think();
    }

    fn usermove(&mut self, m: Move, text: &str) {
        if let Some(guess) = self.pondering {
            if guess == m && self.s.pondering() {
                return self.ponderhit();
            }
            self.cancel_ponder();
        }
        if self.s.thinking() && !self.analyzing {
            return self.out(&illegal_move(text, Some("engine is thinking")));
        }
        let mut game = self.s.game().clone();
        if game.play(m).is_err() {
            return self.out(&illegal_move(text, None));
        }
        self.s.abandon_search();
        self.s.set_game(game);
        if self.analyzing {
            self.analyze();
        } else if !self.force && !self.game_over && self.side_to_move() == self.engine_side {
            self.think();
        }
    }

    /// The opponent played the guessed move: the ponder search becomes our search.
    fn ponderhit(&mut self) {
        self.pondering = None;
        self.clock.start();
        let draw = std::mem::take(&mut self.draw_offered);
        if let Err(e) = self.s.ponderhit(draw) {
            self.s.error(&e);
        }
    }

    fn take_back(&mut self, plies: usize, name: &str) {
        self.halt();
        let n = self.s.game().moves().len();
        if n < plies {
            return self.out(&refusal("no move to take back", name));
        }
        self.rewind(n - plies);
        self.position_changed();
    }
}
