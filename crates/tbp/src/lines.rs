//! TBP's framing on a byte stream: one JSON message a line, both ways.
//!
//! Both the bot driver and the front end read lines from a program they do not trust, so a
//! line is read with a cap on its length (a peer printing without end costs no memory) and
//! anything that is not text comes back as a value to report, never as a panic.

use serde::Serialize;
use std::io::{self, BufRead, Read, Write};

/// The longest line either side reads: a `start` message is about 3 kB, so a megabyte is a
/// runaway peer, not a message.
pub const MAX_LINE: u64 = 1 << 20;

/// How much of a bad line a note or a fault quotes.
const EXCERPT_CHARS: usize = 120;

/// One line read from a peer.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line of text, without its line break.
    Line(String),
    /// A line that cannot be a message (not UTF-8, or longer than [`MAX_LINE`]): why, and how
    /// it starts.
    Invalid { reason: &'static str, start: String },
    /// The stream ended.
    End,
}

/// Reads the next line; a line over the cap is read to its end and dropped, so the stream
/// stays in step for the next one.
pub fn read_frame(reader: &mut impl BufRead) -> io::Result<Frame> {
    let mut bytes = Vec::new();
    reader
        .by_ref()
        .take(MAX_LINE)
        .read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(Frame::End);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
        skip_line(reader)?;
        let start = excerpt(&String::from_utf8_lossy(&bytes));
        return Ok(Frame::Invalid {
            reason: "a line longer than a megabyte",
            start,
        });
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Ok(match String::from_utf8(bytes) {
        Ok(line) => Frame::Line(line),
        Err(e) => Frame::Invalid {
            reason: "a line that is not UTF-8",
            start: excerpt(&String::from_utf8_lossy(e.as_bytes())),
        },
    })
}

/// Reads and drops the rest of a line.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// Writes `message` as one line and flushes it: the peer waits for whole lines.
pub fn write_message(writer: &mut impl Write, message: &impl Serialize) -> io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(io::Error::other)?;
    line.push(b'\n');
    writer.write_all(&line)?;
    writer.flush()
}

/// The start of `line`, cut at [`EXCERPT_CHARS`] characters with an ellipsis and its control
/// characters escaped (a peer's bytes must not drive the terminal a note or fault lands on).
pub fn excerpt(line: &str) -> String {
    let mut out = String::new();
    for (i, c) in line.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        match c.is_control() {
            true => out.extend(c.escape_default()),
            false => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_stripped_of_their_breaks() {
        let mut input = &b"{\"type\":\"ready\"}\r\nlast"[..];
        assert_eq!(
            read_frame(&mut input).unwrap(),
            Frame::Line("{\"type\":\"ready\"}".into())
        );
        assert_eq!(read_frame(&mut input).unwrap(), Frame::Line("last".into()));
        assert_eq!(read_frame(&mut input).unwrap(), Frame::End);
    }

    #[test]
    fn a_runaway_line_is_dropped_whole_and_the_next_one_read() {
        let mut bytes = vec![b'x'; MAX_LINE as usize + 10];
        bytes.extend_from_slice(b"\nnext\n");
        let mut input = io::BufReader::new(&bytes[..]);
        let Frame::Invalid { reason, start } = read_frame(&mut input).unwrap() else {
            panic!("a long line is invalid");
        };
        assert_eq!(reason, "a line longer than a megabyte");
        assert_eq!(start, format!("{}…", "x".repeat(EXCERPT_CHARS)));
        assert_eq!(read_frame(&mut input).unwrap(), Frame::Line("next".into()));
    }

    #[test]
    fn excerpts_are_short_and_escape_control_characters() {
        assert_eq!(excerpt("a\u{1b}[2Jb\r"), "a\\u{1b}[2Jb\\r");
        assert_eq!(
            excerpt(&"é".repeat(200)),
            format!("{}…", "é".repeat(EXCERPT_CHARS))
        );
        assert_eq!(excerpt("short"), "short");
    }

    #[test]
    fn bytes_that_are_not_text_are_invalid() {
        let mut input = &b"\xff\xfe{}\nok\n"[..];
        assert_eq!(
            read_frame(&mut input).unwrap(),
            Frame::Invalid {
                reason: "a line that is not UTF-8",
                start: "\u{fffd}\u{fffd}{}".into()
            }
        );
        assert_eq!(read_frame(&mut input).unwrap(), Frame::Line("ok".into()));
    }
}
