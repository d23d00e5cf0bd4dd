//! `chuhe play`: a game against the engine in the terminal. The board is drawn with colours
//! (crossterm's escape codes) or in plain text; the player types a move or a command on a
//! line under it. The engine searches in this process; the rules (`rules::Game::verdict`,
//! as `chuhe judge`) end the game, which is saved as PGN.
//!
//! Files: `config.rs` (flags and help), `board.rs` (the board drawn), `screen.rs` (board,
//! panel, messages), `input.rs` (commands, moves, why a move is illegal), `state.rs` (the
//! game, the engine, the clocks, PGN).

mod board;
mod config;
mod input;
mod screen;
mod state;

pub use config::{ABOUT, HELP};

use crate::board::Color;
use crate::cli::out;
use board::Look;
use config::Config;
use input::{format_move, why_illegal, Command};
use screen::Screen;
use state::{score_text, End, Play, DRAW_ACCEPT_CP};
use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

/// Runs a game to its end (or the player's quit) and saves it.
pub fn run(args: &[String]) -> Result<(), String> {
    let cfg = Config::parse(args)?;
    let env = |k: &str| std::env::var(k).ok();
    let tty = std::io::stdout().is_terminal();
    let reason = screen::plain_reason(cfg.plain, tty, env("NO_COLOR").as_deref(), env("TERM").as_deref());
    let look = if reason.is_some() { Look::Plain } else { cfg.look };
    if let Some(r) = reason {
        outln!(
            "chuhe play: no colours ({r}): a plain text board, upper case Red, lower case Black \
             ({}); (X) is the piece that moved last, * the point it left",
            input::letter_key()
        );
    }
    let mut screen = Screen { look, bottom: cfg.side };
    let mut messages = vec![intro(&cfg)];
    if look != Look::Plain {
        if let Ok((w, h)) = crossterm::terminal::size().map(|(w, h)| (w as usize, h as usize)) {
            if w < 80 || h < 24 {
                messages.push(format!("(the terminal is {w}x{h}; the board needs 80x24)"));
            }
        }
    }
    let mut play = Play::new(cfg);
    let end = game_loop(&mut play, &mut screen, &mut messages);
    finish(&play, &screen, &end)
}

/// The first message: how to move, and who starts.
fn intro(cfg: &Config) -> String {
    let first = if cfg.start.side_to_move() == cfg.side { "you move first" } else { "Chuhe moves first" };
    format!("You play {}; {first}. Type a move (like h2e2) or 'help'.", cfg.side.name())
}

/// Plays until the rules, a clock, a resignation, an agreed draw or the player's quit end the
/// game; returns how it ended.
fn game_loop(play: &mut Play, screen: &mut Screen, messages: &mut Vec<String>) -> End {
    let mut stdin = std::io::stdin().lock();
    let mut turn_start = Instant::now();
    let mut commands = false;
    let mut shown = None;
    // Typed lines echo on a terminal; from a pipe they are printed after the prompt.
    let typed = std::io::stdin().is_terminal();
    loop {
        if let Some(end) = play.verdict() {
            return end;
        }
        if !play.players_turn() {
            if screen.look == Look::Plain {
                outln!("Chuhe is thinking...");
            } else {
                messages.push("Chuhe is thinking...".into());
                show(screen, play, messages, commands);
                messages.pop();
            }
            match play.engine_turn() {
                Ok(r) => messages.push(format!("Chuhe plays {} ({})", r.text, r.note)),
                Err(end) => return end,
            }
            turn_start = Instant::now();
            continue;
        }
        // Plain text is printed below the last screen: the board again only when it changed.
        let now = (play.position().key(), play.game.moves().len(), screen.bottom, commands);
        if screen.look != Look::Plain || shown != Some(now) {
            show(screen, play, messages, commands);
            shown = Some(now);
        } else {
            show_messages(messages);
        }
        out!("{} to move (you)> ", play.position().side_to_move().name());
        flush();
        let Some(line) = read_line(&mut stdin) else {
            return End::left(play.config().side);
        };
        if !typed {
            outln!("{}", line.trim_end());
        }
        messages.clear();
        commands = false;
        let command = match input::parse(play.position(), &line) {
            Ok(c) => c,
            Err(msg) => {
                messages.push(msg);
                continue;
            }
        };
        match command {
            Command::Move(m) if !play.position().is_legal(m) => {
                messages.push(format!("{m} is not a legal move here: {}", why_illegal(play.position(), m)));
            }
            Command::Move(m) => {
                let text = format_move(play.position(), m, play.config().notation);
                let ms = turn_start.elapsed().as_millis() as u64;
                if let Err(end) = play.play_player(m, ms) {
                    return end;
                }
                messages.push(format!("You play {text}"));
            }
            Command::Undo if play.undo() => {
                messages.push("Took back the engine's reply and your move".into());
            }
            Command::Undo => messages.push("Nothing to take back yet".into()),
            Command::Hint => messages.push(match play.hint() {
                Some((text, score)) => format!("Hint: {text} ({} for you)", score_text(score)),
                None => "No hint: no legal move".into(),
            }),
            Command::Draw => {
                let (accepted, score) = play.offer_draw();
                let at = format!("its score {}, the limit {}", score_text(score), score_text_cp(DRAW_ACCEPT_CP));
                if accepted {
                    return End::draw_agreed(&at);
                }
                messages.push(format!("Chuhe declines the draw ({at}); play on"));
            }
            Command::Resign => return End::resigned(play.config().side),
            Command::Flip => {
                screen.bottom = screen.bottom.opp();
                messages.push(format!("{} is at the bottom now", screen.bottom.name()));
            }
            Command::Save(path) => messages.push(match std::fs::write(&path, play.pgn(None)) {
                Ok(()) => format!("Saved the game so far to {path}"),
                Err(e) => format!("Cannot write {path}: {e}"),
            }),
            Command::Help => {
                commands = true;
                messages.push("The commands are listed on the right.".into());
            }
            Command::Quit => return End::left(play.config().side),
            Command::Empty => {}
        }
    }
}

/// A centipawn limit as a score text.
fn score_text_cp(cp: i32) -> String {
    score_text(crate::search::Score::Cp(cp))
}

/// Shows the screen.
fn show(screen: &Screen, play: &Play, messages: &[String], commands: bool) {
    out!("{}", screen.render(play, messages, commands));
    flush();
}

/// Prints `messages` alone (plain text, the board unchanged).
fn show_messages(messages: &[String]) {
    for m in messages {
        outln!("{m}");
    }
}

/// Flushes stdout (a prompt has no newline); a reader gone away ends the process quietly.
fn flush() {
    if let Err(e) = std::io::stdout().flush() {
        out::quit(&e);
    }
}

/// The next typed line (invalid UTF-8 replaced), or `None` at the end of input.
fn read_line(stdin: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match stdin.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
    }
}

/// Shows the final position and how the game ended, and saves the game (a game with no move
/// is not saved).
fn finish(play: &Play, screen: &Screen, end: &End) -> Result<(), String> {
    let result = end.result.map_or("*".to_string(), |r| r.to_string());
    let mut messages = vec![format!("Game over: {result} {{{}}}", end.reason)];
    if end.result.is_none() {
        messages = vec![format!("Game left unfinished: {}", end.reason)];
    }
    let path = &play.config().pgn_out;
    if play.game.moves().is_empty() {
        messages.push("No move was played: nothing saved".into());
    } else {
        std::fs::write(path, play.pgn(Some(end))).map_err(|e| format!("cannot write the PGN to {path}: {e}"))?;
        messages.push(format!("The game is saved in {path}"));
    }
    out!("\n{}", screen.render(play, &messages, false));
    flush();
    Ok(())
}

impl End {
    /// The player resigned.
    fn resigned(side: Color) -> End {
        End {
            result: Some(crate::rules::GameResult::loss_for(side)),
            reason: format!("{} resigns", side.name()),
            termination: crate::matches::game::Termination::Agreement,
        }
    }

    /// The engine accepted the player's draw offer.
    fn draw_agreed(at: &str) -> End {
        End {
            result: Some(crate::rules::GameResult::Draw),
            reason: format!("Draw agreed (Chuhe accepts: {at})"),
            termination: crate::matches::game::Termination::Agreement,
        }
    }

    /// The player left before the end.
    fn left(side: Color) -> End {
        End {
            result: None,
            reason: format!("{} left the game", side.name()),
            termination: crate::matches::game::Termination::Unterminated,
        }
    }
}
