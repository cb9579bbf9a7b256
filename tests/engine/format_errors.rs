//! Malformed problem files in Knuth's format: each gives its own clear error, with the line and
//! column of the fault, and never a panic.

use xcover::dlx::format::{self, ParseErrorKind};

#[test]
fn malformed_files_report_line_column_and_kind() {
    let cases: &[(&str, &str, usize, usize, ParseErrorKind)] = &[
        ("empty input", "", 1, 1, ParseErrorKind::NoItemLine),
        (
            "only comments",
            "| nothing here\n| at all\n",
            2,
            1,
            ParseErrorKind::NoItemLine,
        ),
        (
            "unknown item in an option",
            "a b c\na b\nc d\n",
            3,
            3,
            ParseErrorKind::UnknownItem("d".into()),
        ),
        (
            "duplicate item name",
            "| comment first\na b a\n",
            2,
            5,
            ParseErrorKind::DuplicateItem("a".into()),
        ),
        (
            "an option naming an item twice",
            "a b c\na b\n  c  b c\n",
            3,
            8,
            ParseErrorKind::RepeatedItem("c".into()),
        ),
        ("bar twice", "a | b | c\n", 1, 7, ParseErrorKind::SecondBar),
        (
            // As in DLX1, a line whose first non-blank is `|` is a comment, so an item line
            // cannot start with the secondary items.
            "a comment with blanks before the bar",
            " | x y\n",
            1,
            1,
            ParseErrorKind::NoItemLine,
        ),
        (
            "a DLX2 colour on a primary item",
            "a b | x\na:red x\n",
            2,
            1,
            ParseErrorKind::ColoredPrimary("a".into()),
        ),
        (
            "an empty colour",
            "a b | x\na x:\n",
            2,
            3,
            ParseErrorKind::InvalidColor("x:".into()),
        ),
        (
            "a colour on an item the item line does not name",
            "a b | x\na z:red\n",
            2,
            3,
            ParseErrorKind::UnknownItem("z".into()),
        ),
        (
            "an item named twice, with colours",
            "a b | x\na x:red x:red\n",
            2,
            9,
            ParseErrorKind::RepeatedItem("x".into()),
        ),
        (
            "DLX3 bounds with the lower above the upper",
            "a 3:2|b | x\na\n",
            1,
            3,
            ParseErrorKind::BadBounds("3:2|b".into(), "the lower bound exceeds the upper".into()),
        ),
        (
            "DLX3 bounds with an upper bound of 0",
            "a 0|b\na\n",
            1,
            3,
            ParseErrorKind::BadBounds("0|b".into(), "the upper bound is 0".into()),
        ),
        (
            "DLX3 bounds on a secondary item",
            "a | 2|x\na\n",
            1,
            5,
            ParseErrorKind::BadBounds("2|x".into(), "a secondary item cannot have bounds".into()),
        ),
        (
            "DLX3 bounds that are not numbers",
            "a x:2|b\na\n",
            1,
            3,
            ParseErrorKind::BadBounds("x:2|b".into(), "not a bound".into()),
        ),
        (
            "a color on the item line",
            "a b:c\n",
            1,
            3,
            ParseErrorKind::InvalidName("b:c".into()),
        ),
        (
            "a block before the item line",
            "|block: a / b\na b\n",
            1,
            1,
            ParseErrorKind::BadBlock(
                "a block before the item line; blocks name items the item line declares".into(),
            ),
        ),
        (
            "a block without '/'",
            "a b\n|block: a b\n",
            2,
            1,
            ParseErrorKind::BadBlock(
                "no '/': expected |block: the first side's items / the second side's".into(),
            ),
        ),
        (
            "a block with two '/'",
            "a b c\n|block: a / b / c\n",
            2,
            15,
            ParseErrorKind::BadBlock("a second '/'; one separates the two sides".into()),
        ),
        (
            "a block naming an unknown item",
            "a b\n|block: a / z\n",
            2,
            13,
            ParseErrorKind::UnknownItem("z".into()),
        ),
        (
            "a block with sides of different sizes",
            "a b c\n|block: a / b c\n",
            2,
            1,
            ParseErrorKind::BadBlock(
                "a one-to-one block needs two sides of the same size, not 1 and 2".into(),
            ),
        ),
        (
            "a block with a secondary item",
            "a | x\n|block: a / x\n",
            2,
            1,
            ParseErrorKind::BadBlock(
                "item 'x' of a one-to-one block is secondary (only primary items)".into(),
            ),
        ),
        (
            "a block that an option, read after it, breaks",
            "a b c\n| a comment\n|block: a / b\na b\na c\n",
            3,
            1,
            ParseErrorKind::BadBlock(
                "option 2 ('a c') breaks a one-to-one block: it contains 1 of its first side \
                 (a...) and 0 of its second, not one of each"
                    .into(),
            ),
        ),
    ];
    for (what, text, line, column, kind) in cases {
        let error = format::read(text).expect_err(what);
        assert_eq!(
            (error.line, error.column, &error.kind),
            (*line, *column, kind),
            "{what}"
        );
        let message = error.to_string();
        assert!(
            message.starts_with(&format!("line {line}, column {column}: ")),
            "{what}: {message}"
        );
    }
}

#[test]
fn messages_say_what_was_expected() {
    let error = format::read("a b\na z\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2, column 3: unknown item 'z'; expected an item declared on the item line"
    );
}

#[test]
fn options_with_only_secondary_items_are_warned_about_and_dropped() {
    let parsed = format::read("a | x y\na\nx y\n| comment\ny\n").unwrap();
    let lines: Vec<usize> = parsed.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![3, 5]);
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A cheap fuzz: every prefix of a tricky text, and a few odd characters.
    let text = "a b | c\n| x\na c\n\tb\u{00e9} c\na | b\nc c\n\u{0}\r\n";
    for end in 0..=text.len() {
        if text.is_char_boundary(end) {
            let _ = format::read(&text[..end]);
        }
    }
}
