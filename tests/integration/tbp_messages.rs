//! TBP's messages as the spec writes them: what the front end sends is the spec's JSON, what
//! bots send parses (Cold Clear 2's lines among them), and piece locations mean the cells the
//! spec says.

use serde_json::{Value, json};
use stacktune_tbp::messages::{
    Board, BotMessage, Cell, FrontendMessage, Info, Location, Move, MoveInfo, Orientation, Piece,
    Randomizer, RandomizerState, Rules, Spin, Start, Suggestion,
};

fn location(piece: Piece, orientation: Orientation, x: i32, y: i32) -> Location {
    Location {
        piece,
        orientation,
        x,
        y,
    }
}

fn sent(message: &FrontendMessage) -> Value {
    serde_json::to_value(message).unwrap()
}

/// Each message a front end sends, as JSON.
#[test]
fn front_end_messages_are_written_as_the_spec_writes_them() {
    let rules = Rules {
        randomizer: Randomizer::SevenBag,
    };
    assert_eq!(
        sent(&FrontendMessage::Rules(rules)),
        json!({"type": "rules", "randomizer": "seven_bag"})
    );
    let mut board = Board::EMPTY;
    board.rows[0][0] = Some(Cell::G);
    board.rows[1][2] = Some(Cell::from(Piece::T));
    let start = Start {
        hold: Some(Piece::I),
        queue: vec![Piece::S, Piece::Z, Piece::O],
        combo: 1,
        back_to_back: true,
        board,
        randomizer: Some(RandomizerState::SevenBag {
            bag_state: vec![Piece::L, Piece::J],
        }),
    };
    let mut rows = vec![vec![Value::Null; 10]; 40];
    rows[0][0] = json!("G");
    rows[1][2] = json!("T");
    assert_eq!(
        sent(&FrontendMessage::Start(Box::new(start))),
        json!({"type": "start", "hold": "I", "queue": ["S", "Z", "O"], "combo": 1,
            "back_to_back": true, "board": rows,
            "randomizer": {"type": "seven_bag", "bag_state": ["L", "J"]}})
    );
    assert_eq!(sent(&FrontendMessage::Stop), json!({"type": "stop"}));
    assert_eq!(sent(&FrontendMessage::Suggest), json!({"type": "suggest"}));
    let mv = Move {
        location: location(Piece::T, Orientation::South, 3, 1),
        spin: Spin::Full,
    };
    assert_eq!(
        sent(&FrontendMessage::Play { mv }),
        json!({"type": "play", "move": {"location": {"type": "T", "orientation": "south",
            "x": 3, "y": 1}, "spin": "full"}})
    );
    assert_eq!(
        sent(&FrontendMessage::NewPiece { piece: Piece::L }),
        json!({"type": "new_piece", "piece": "L"})
    );
    assert_eq!(sent(&FrontendMessage::Quit), json!({"type": "quit"}));
}

/// Lines Cold Clear 2 wrote (MinusKelvin/cold-clear-2 at ed8b193, talked to by hand): its
/// `info`, and its suggestion for the first piece on an empty board after 100 ms.
#[test]
fn cold_clear_2s_messages_parse() {
    let info: BotMessage = serde_json::from_str(
        r#"{"type":"info","name":"Cold Clear 2","version":"0.1.0 ed8b193","author":"MinusKelvin","features":[]}"#,
    )
    .unwrap();
    assert_eq!(
        info,
        BotMessage::Info(Info {
            name: "Cold Clear 2".into(),
            version: "0.1.0 ed8b193".into(),
            author: "MinusKelvin".into(),
            features: vec![],
        })
    );
    let suggestion: BotMessage = serde_json::from_str(
        r#"{"type":"suggestion","moves":[{"location":{"type":"I","orientation":"north","x":1,"y":0},"spin":"none"}],"move_info":{"nodes":45750,"nps":414341.7340644441,"extra":"100.0% of selections expanded, overall speed: 0.4 Mnps"}}"#,
    )
    .unwrap();
    assert_eq!(
        suggestion,
        BotMessage::Suggestion(Suggestion {
            moves: vec![Move {
                location: location(Piece::I, Orientation::North, 1, 0),
                spin: Spin::None,
            }],
            move_info: Some(MoveInfo {
                nodes: Some(45750),
                nps: Some(414341.7340644441),
                depth: None,
                extra: Some("100.0% of selections expanded, overall speed: 0.4 Mnps".into()),
            }),
        })
    );
}

/// `move_info` only informs: one shaped otherwise is dropped, the moves kept; unknown types
/// and attributes are no error.
#[test]
fn bot_messages_are_read_leniently_where_the_spec_allows() {
    let odd: BotMessage = serde_json::from_str(
        r#"{"type":"suggestion","moves":[],"move_info":{"nodes":"many"},"confidence":0.9}"#,
    )
    .unwrap();
    assert_eq!(
        odd,
        BotMessage::Suggestion(Suggestion {
            moves: vec![],
            move_info: None
        })
    );
    let unknown: BotMessage = serde_json::from_str(r#"{"type":"thinking","depth":3}"#).unwrap();
    assert_eq!(unknown, BotMessage::Unknown);
    let ready: BotMessage = serde_json::from_str(r#"{"type":"ready","threads":4}"#).unwrap();
    assert_eq!(ready, BotMessage::Ready);
    let unknown: FrontendMessage = serde_json::from_str(r#"{"type":"hold_locked"}"#).unwrap();
    assert_eq!(unknown, FrontendMessage::Unknown);
    // A move needs its spin: it decides the attack.
    assert!(
        serde_json::from_str::<Move>(
            r#"{"location":{"type":"T","orientation":"north","x":4,"y":0}}"#
        )
        .is_err()
    );
}

/// The spec's centres: "The center of the O piece in the north orientation is the bottom-left
/// mino; for east, top-left mino; for south, the top-right mino; for west, the bottom-right
/// mino. The center of the I piece in the north orientation is the middle-left mino; for east,
/// the middle-top mino; for south, the middle-right mino; for west, the middle-bottom mino."
/// J, L, S, T, Z turn about their SRS centre, which is one of their cells.
#[test]
fn locations_fill_the_cells_the_spec_describes() {
    let cells = |piece, orientation| {
        let mut c = location(piece, orientation, 4, 20).cells();
        c.sort();
        c
    };
    use Orientation::*;
    use Piece::*;
    // O: the centre (4, 20) is the named corner of its square.
    assert_eq!(cells(O, North), [(4, 20), (4, 21), (5, 20), (5, 21)]);
    assert_eq!(cells(O, East), [(4, 19), (4, 20), (5, 19), (5, 20)]);
    assert_eq!(cells(O, South), [(3, 19), (3, 20), (4, 19), (4, 20)]);
    assert_eq!(cells(O, West), [(3, 20), (3, 21), (4, 20), (4, 21)]);
    // I: the centre is the second mino from the named end.
    assert_eq!(cells(I, North), [(3, 20), (4, 20), (5, 20), (6, 20)]);
    assert_eq!(cells(I, East), [(4, 18), (4, 19), (4, 20), (4, 21)]);
    assert_eq!(cells(I, South), [(2, 20), (3, 20), (4, 20), (5, 20)]);
    assert_eq!(cells(I, West), [(4, 19), (4, 20), (4, 21), (4, 22)]);
    // The SRS spawn shapes (north), the bump up, and one turn each way.
    assert_eq!(cells(T, North), [(3, 20), (4, 20), (4, 21), (5, 20)]);
    assert_eq!(cells(T, East), [(4, 19), (4, 20), (4, 21), (5, 20)]);
    assert_eq!(cells(T, South), [(3, 20), (4, 19), (4, 20), (5, 20)]);
    assert_eq!(cells(T, West), [(3, 20), (4, 19), (4, 20), (4, 21)]);
    assert_eq!(cells(J, North), [(3, 20), (3, 21), (4, 20), (5, 20)]);
    assert_eq!(cells(L, North), [(3, 20), (4, 20), (5, 20), (5, 21)]);
    assert_eq!(cells(S, North), [(3, 20), (4, 20), (4, 21), (5, 21)]);
    assert_eq!(cells(Z, North), [(3, 21), (4, 20), (4, 21), (5, 20)]);
    assert_eq!(cells(L, East), [(4, 19), (4, 20), (4, 21), (5, 19)]);
    assert_eq!(cells(J, West), [(3, 19), (4, 19), (4, 20), (4, 21)]);
    assert_eq!(cells(S, South), [(3, 19), (4, 19), (4, 20), (5, 20)]);
    assert_eq!(cells(Z, West), [(3, 19), (3, 20), (4, 20), (4, 21)]);
}

/// A board is 40 rows of 10; other shapes are refused with the reason.
#[test]
fn boards_have_forty_rows_of_ten() {
    let rows = |n: usize, w: usize| json!(vec![vec![Value::Null; w]; n]);
    assert_eq!(
        serde_json::from_value::<Board>(rows(40, 10)).unwrap(),
        Board::EMPTY
    );
    let e = serde_json::from_value::<Board>(rows(20, 10)).unwrap_err();
    assert_eq!(e.to_string(), "a board has 40 rows, not 20");
    assert!(serde_json::from_value::<Board>(rows(40, 9)).is_err());
    assert!(serde_json::from_value::<Board>(json!([["Q"]])).is_err());
}
