//! The Tetris Bot Protocol (TBP), both ways: a tuned player as a bot any TBP front end can
//! host ([`bot`]), and any TBP bot as a player in stacktune's matches ([`client`]).
//!
//! TBP (tetris-bot-protocol/tbp-spec) is to Tetris bots what UCI is to chess engines: JSON
//! lines over standard input and output, which Cold Clear, Cold Clear 2 and MisaMinoTBP speak
//! and front ends such as Quadspace host. It is an adapter at the top of stacktune: these
//! modules name no game engine; an engine fills [`bot::Brain`] and reads [`messages`]'
//! coordinates. docs/tbp.md describes what is supported.

pub mod bot;
pub mod client;
pub mod lines;
pub mod messages;
