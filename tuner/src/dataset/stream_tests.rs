//! Every format end to end: round trips through the binary formats, files written by the
//! crates themselves, broken and mislabelled files, the tools on files larger than the memory
//! they are given.

use std::path::{Path, PathBuf};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use whetstone::movegen::legal_moves;
use whetstone::{Color, Position};

use super::*;
use crate::dataset::files::FileFormat;
use crate::dataset::Label;
use crate::testutil::TempDir;

/// Positions of `games` random games (consecutive positions follow by a move), each game with
/// one result and every position a score, then a few lone positions without scores.
pub fn game_positions(games: usize, seed: u64) -> Vec<(String, Label)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        let outcome = [0.0, 0.5, 1.0][rng.random_range(0..3)];
        for _ in 0..rng.random_range(4..120) {
            let moves = legal_moves(&pos);
            let Some(&m) = moves.as_slice().choose(&mut rng) else { break };
            out.push((pos.to_fen(), Label { outcome, score: Some(rng.random_range(-2000..2000)) }));
            pos.make_move(m);
        }
    }
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 40",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        out.push((fen.to_string(), Label { outcome: 0.5, score: None }));
    }
    out
}

fn write_all(path: &Path, format: FileFormat, positions: &[(String, Label)]) -> WriteReport {
    let mut writer = create(path, format, true).unwrap();
    for (fen, label) in positions {
        writer.write(&Position::from_fen(fen).unwrap(), *label).unwrap();
    }
    writer.finish().unwrap()
}

fn read_all(path: &Path, options: &ReadOptions) -> anyhow::Result<(Vec<(String, Label)>, ReadReport)> {
    let mut out = Vec::new();
    let report = read(path, options, &mut |pos, label| {
        out.push((pos.to_fen(), label));
        Ok(())
    })?;
    Ok((out, report))
}

fn plain() -> ReadOptions {
    ReadOptions::default()
}

/// A position as the side to move sees it (bulletformat's view): the board flipped when Black
/// is to move, with the score and result then the mover's.
fn mover_view(fen: &str, label: Label) -> (String, Label) {
    let pos = Position::from_fen(fen).unwrap();
    let (pos, label) = if pos.side_to_move() == Color::Black {
        (pos.flipped(), Label { outcome: 1.0 - label.outcome, score: label.score.map(|s| -s) })
    } else {
        (pos, label)
    };
    let placement = pos.to_fen().split(' ').next().unwrap().to_string();
    (placement, label)
}

#[test]
fn text_to_viriformat_and_back_keeps_every_position_result_and_score() {
    let dir = TempDir::new("viri-round");
    let positions = game_positions(30, 1);
    let (text, vf, back) = (dir.path("a.txt"), dir.path("a.vf"), dir.path("b.txt"));
    write_all(&text, FileFormat::Text, &positions);
    let mut writer = create(&vf, FileFormat::Viriformat, false).unwrap();
    let report = read(&text, &plain(), &mut |pos, label| writer.write(pos, label)).unwrap();
    let written = writer.finish().unwrap();
    assert_eq!(report.positions as usize, positions.len());
    // The games chain: 30 games and the 3 lone positions.
    assert_eq!(
        (written.positions as usize, written.games, written.zero_scores, written.dropped),
        (positions.len(), 33, 0, 0)
    );
    let (read_back, report) = read_all(&vf, &plain()).unwrap();
    assert_eq!(report.format, Some(FileFormat::Viriformat));
    assert_eq!(read_back.len(), positions.len());
    for ((fen, label), (fen2, label2)) in positions.iter().zip(&read_back) {
        assert_eq!(fen, fen2);
        assert_eq!(label.outcome, label2.outcome, "{fen}");
        assert_eq!(label.score.unwrap_or(0), label2.score.unwrap(), "{fen}");
    }
    // And on to text again: the same lines as the first text but the three 0 scores.
    let mut writer = create(&back, FileFormat::Text, false).unwrap();
    read(&vf, &plain(), &mut |pos, label| writer.write(pos, label)).unwrap();
    writer.finish().unwrap();
    assert_eq!(std::fs::read_to_string(&text).unwrap(), std::fs::read_to_string(&back).unwrap());
    // Loading for the tuner gives the same positions in the same order from both files.
    let load = |path: &Path| {
        crate::dataset::load::load_labelled(path, &crate::dataset::LoadOptions::default(), |p, l| {
            (p.to_fen(), l.outcome)
        })
        .unwrap()
        .0
    };
    assert_eq!(load(&vf), load(&text));
}

#[test]
fn a_position_without_a_legal_move_cannot_be_stored_in_viriformat() {
    let dir = TempDir::new("viri-mate");
    let mate = ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".to_string(), Label { outcome: 1.0, score: Some(0) });
    let fine = ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1".to_string(), Label { outcome: 1.0, score: Some(900) });
    let report = write_all(&dir.path("m.vf"), FileFormat::Viriformat, &[fine.clone(), mate, fine.clone()]);
    assert_eq!((report.positions, report.dropped, report.games), (2, 1, 2));
    assert_eq!(read_all(&dir.path("m.vf"), &plain()).unwrap().0, vec![fine.clone(), fine]);
}

#[test]
fn text_to_bulletformat_and_back_keeps_the_board_result_and_score_from_the_movers_view() {
    let dir = TempDir::new("bullet-round");
    let positions = game_positions(10, 2);
    let (text, bf) = (dir.path("a.txt"), dir.path("a.bullet"));
    write_all(&text, FileFormat::Text, &positions);
    let mut writer = create(&bf, FileFormat::Bulletformat, false).unwrap();
    read(&text, &plain(), &mut |pos, label| writer.write(pos, label)).unwrap();
    assert_eq!(writer.finish().unwrap().zero_scores, 0, "the text file wrote 0 for no score");
    assert_eq!(std::fs::metadata(&bf).unwrap().len() as usize, 32 * positions.len());
    let (back, report) = read_all(&bf, &plain()).unwrap();
    assert_eq!(report.format, Some(FileFormat::Bulletformat));
    assert_eq!(back.len(), positions.len());
    for ((fen, label), (fen2, label2)) in positions.iter().zip(&back) {
        let label = Label { score: Some(label.score.unwrap_or(0)), ..*label };
        assert!(fen2.ends_with(" w - - 0 1"), "{fen2}");
        assert_eq!(mover_view(fen, label), mover_view(fen2, *label2), "{fen}");
    }
}

#[test]
fn files_written_by_the_crates_read_back_as_the_crates_read_them() {
    use viriformat::chess::board::{Board, GameOutcome, WinType};
    use viriformat::dataformat::Game;
    let dir = TempDir::new("crates");
    // viriformat: a game built and serialised by the crate, read by us and by the crate.
    let positions = game_positions(1, 3);
    let mut board = Board::new();
    board.set_from_fen(&positions[0].0, false).unwrap();
    let mut game = Game::new(&board);
    game.set_outcome(GameOutcome::WhiteWin(WinType::Mate));
    let mut crate_board = board.clone();
    for window in positions.windows(2).take_while(|w| w[1].1.score.is_some()) {
        let mut pos = Position::from_fen(&window[0].0).unwrap();
        let next = Position::from_fen(&window[1].0).unwrap();
        let m = crate::dataset::binary::move_between(&mut pos, &next).unwrap();
        let uci = pos.move_to_uci(m);
        let viri_move = crate_board.parse_uci(&uci).unwrap();
        crate_board.make_move_simple(viri_move);
        game.add_move(viri_move, window[0].1.score.unwrap() as i16);
    }
    let mut bytes = Vec::new();
    game.serialise_into(&mut bytes).unwrap();
    let path = dir.path("crate.vf");
    std::fs::write(&path, &bytes).unwrap();
    let mut theirs = Vec::new();
    game.visit_positions(|b, eval| theirs.push((b.to_string(), eval)));
    let (ours, _) = read_all(&path, &plain()).unwrap();
    assert_eq!(ours.len(), theirs.len());
    for ((fen, label), (their_fen, eval)) in ours.iter().zip(&theirs) {
        // The crate writes no en-passant square when no capture is possible; ours keeps the
        // square of the double push only then too: the boards and labels are the same.
        assert_eq!(
            Position::from_fen(fen).unwrap().key(),
            Position::from_fen(their_fen).unwrap().key(),
            "{fen} / {their_fen}"
        );
        assert_eq!((label.outcome, label.score), (1.0, Some(*eval)));
    }

    // bulletformat: records parsed from text by the crate, read by us as the crate's iterator.
    use bulletformat::{BulletFormat, ChessBoard};
    let lines: Vec<String> = positions
        .iter()
        .take(40)
        .map(|(fen, l)| format!("{fen} | {} | {}", l.score.unwrap(), l.outcome))
        .collect();
    let boards: Vec<ChessBoard> = lines.iter().map(|l| l.parse::<ChessBoard>().unwrap()).collect();
    let path = dir.path("crate.bullet");
    std::fs::write(&path, ChessBoard::as_bytes_slice(&boards)).unwrap();
    let (ours, _) = read_all(&path, &plain()).unwrap();
    for ((fen, label), board) in ours.iter().zip(&boards) {
        let pos = Position::from_fen(fen).unwrap();
        let mut pieces: Vec<(u8, u8)> = Vec::new();
        for sq in whetstone::Square::all() {
            if let Some(p) = pos.piece_on(sq) {
                let code = p.piece_type() as u8 | if p.color() == Color::White { 0 } else { 8 };
                pieces.push((code, sq.index() as u8));
            }
        }
        assert_eq!(pieces, board.into_iter().collect::<Vec<_>>(), "{fen}");
        assert_eq!((label.score, label.outcome), (Some(i32::from(board.score())), board.result()));
    }
}

/// Writes the scored positions as a binpack with sfbinpack's own writer. Each entry's move is
/// the one that leads to the next position when it follows in the same game (so the writer
/// chains them as Stockfish's data is chained), else the first legal move.
fn write_binpack(path: &Path, positions: &[(String, Label)]) {
    use sfbinpack::chess::piece::Piece as SfPiece;
    use sfbinpack::chess::piecetype::PieceType as SfType;
    use sfbinpack::chess::r#move::{Move as SfMove, MoveType};
    use sfbinpack::chess::{
        color::Color as SfColor, coords::Square as SfSquare, position::Position as SfPos,
    };
    use sfbinpack::{CompressedTrainingDataEntryWriter, TrainingDataEntry};
    use whetstone::types::{MoveKind, PieceType};
    let file =
        std::fs::File::options().read(true).write(true).create(true).truncate(true).open(path).unwrap();
    let mut writer = CompressedTrainingDataEntryWriter::new(file).unwrap();
    let scored: Vec<&(String, Label)> = positions.iter().filter(|(_, l)| l.score.is_some()).collect();
    for (i, (fen, label)) in scored.iter().enumerate() {
        let mut pos = Position::from_fen(fen).unwrap();
        let next = scored.get(i + 1).map(|(f, _)| Position::from_fen(f).unwrap());
        let m = next
            .and_then(|next| crate::dataset::binary::move_between(&mut pos, &next))
            .unwrap_or_else(|| *legal_moves(&pos).iter().next().unwrap());
        let stm = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let color = if stm == 1 { SfColor::White } else { SfColor::Black };
        let (kind, promoted) = match m.kind() {
            MoveKind::Normal => (MoveType::Normal, SfPiece::none()),
            MoveKind::Castling => (MoveType::Castle, SfPiece::none()),
            MoveKind::EnPassant => (MoveType::EnPassant, SfPiece::none()),
            MoveKind::Promotion => {
                let kind = match m.promotion_piece() {
                    Some(PieceType::Knight) => SfType::Knight,
                    Some(PieceType::Bishop) => SfType::Bishop,
                    Some(PieceType::Rook) => SfType::Rook,
                    _ => SfType::Queen,
                };
                (MoveType::Promotion, SfPiece::new(kind, color))
            }
        };
        let entry = TrainingDataEntry {
            pos: SfPos::from_fen(fen).unwrap(),
            mv: SfMove::new(
                SfSquare::new(m.from().index() as u32),
                SfSquare::new(m.to().index() as u32),
                kind,
                promoted,
            ),
            score: (label.score.unwrap() * stm) as i16,
            ply: crate::dataset::tools::filter::ply(&pos) as u16,
            result: ((label.outcome * 2.0) as i16 - 1) * stm as i16,
        };
        writer.write_entry(&entry).unwrap();
    }
    writer.flush_and_end();
}

#[test]
fn a_binpack_written_by_sfbinpack_reads_as_its_own_reader_reads_it() {
    use sfbinpack::CompressedTrainingDataEntryReader;
    let dir = TempDir::new("binpack");
    let path = dir.path("a.binpack");
    let positions = game_positions(8, 4);
    write_binpack(&path, &positions);
    let mut theirs = Vec::new();
    let mut reader = CompressedTrainingDataEntryReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    while reader.has_next() {
        let e = reader.next();
        theirs.push((e.pos.fen().unwrap(), e.score, e.result));
    }
    let (ours, report) = read_all(&path, &plain()).unwrap();
    assert_eq!(report.format, Some(FileFormat::Binpack));
    assert_eq!(ours.len(), theirs.len());
    assert_eq!(ours.len(), positions.iter().filter(|(_, l)| l.score.is_some()).count());
    for ((fen, label), (their_fen, score, result)) in ours.iter().zip(&theirs) {
        // The same board, rights and counters, whether played on along a chain or set up anew.
        assert_eq!(fen, their_fen);
        let stm = if fen.contains(" w ") { 1 } else { -1 };
        assert_eq!(label.score, Some(i32::from(*score) * stm));
        assert_eq!(label.outcome, (f32::from(result * stm as i16) + 1.0) / 2.0);
    }
    // And they are the positions written (the first `score.is_some()` ones, in order).
    let written: Vec<u64> = positions
        .iter()
        .filter(|(_, l)| l.score.is_some())
        .map(|(f, _)| Position::from_fen(f).unwrap().key())
        .collect();
    let read_keys: Vec<u64> = ours.iter().map(|(f, _)| Position::from_fen(f).unwrap().key()).collect();
    assert_eq!(read_keys, written);
}

fn viri_file(dir: &TempDir, name: &str, games: usize) -> (PathBuf, Vec<(String, Label)>, Vec<u8>) {
    let positions: Vec<(String, Label)> =
        game_positions(games, 5).into_iter().filter(|(_, l)| l.score.is_some()).collect();
    let path = dir.path(name);
    write_all(&path, FileFormat::Viriformat, &positions);
    let bytes = std::fs::read(&path).unwrap();
    (path, positions, bytes)
}

#[test]
fn a_truncated_or_corrupt_viriformat_file_names_the_byte_and_game_and_keeps_the_rest_when_asked() {
    let dir = TempDir::new("viri-broken");
    let (_, positions, bytes) = viri_file(&dir, "good.vf", 3);
    // Game boundaries: each game is a header, moves, the end marker.
    let mut starts = vec![0usize];
    let mut at = 32;
    while at + 4 <= bytes.len() {
        if bytes[at..at + 4] == [0; 4] {
            starts.push(at + 4);
            at += 36;
        } else {
            at += 4;
        }
    }
    assert_eq!(starts.len(), 4, "3 games and the end");
    // Truncated in the last game.
    let cut = dir.path("cut.vf");
    std::fs::write(&cut, &bytes[..starts[3] - 10]).unwrap();
    let err = format!("{:#}", read_all(&cut, &plain()).unwrap_err());
    assert!(err.contains(&format!("game 3 at byte {}: truncated", starts[2])), "{err}");
    assert!(err.contains("positions read before it"), "{err}");
    let (kept, report) = read_all(&cut, &ReadOptions { skip_broken: true, ..plain() }).unwrap();
    assert_eq!(report.skipped, 1);
    assert_eq!(kept.len(), (starts[2] - 32 * 2 - 8) / 4, "the first two games' positions");
    // An illegal move in the middle game: named, and the games after it read with --skip-broken.
    let mut bad = bytes.clone();
    let record = starts[1] + 32 + 4 * 5;
    bad[record] ^= 0x3f;
    bad[record + 1] ^= 0x0f;
    let path = dir.path("bad.vf");
    std::fs::write(&path, &bad).unwrap();
    let err = format!("{:#}", read_all(&path, &plain()).unwrap_err());
    // Named by the crate in a debug build (it checks legality there), by our replay otherwise.
    assert!(err.contains(&format!("game 2 at byte {}: ", starts[1])), "{err}");
    assert!(err.contains(&format!("move 6 (byte {record}")) || err.contains("parsed illegal move"), "{err}");
    let (kept, report) = read_all(&path, &ReadOptions { skip_broken: true, ..plain() }).unwrap();
    assert_eq!(report.skipped, 1);
    let game2 = (starts[2] - starts[1] - 36) / 4;
    assert_eq!(kept.len(), positions.len() - game2, "game 2 is skipped whole");
    assert_eq!(kept.last(), positions.last());
}

#[test]
fn a_corrupt_bulletformat_record_is_named_and_skipped_when_asked() {
    let dir = TempDir::new("bullet-broken");
    let positions: Vec<(String, Label)> = game_positions(2, 6);
    let path = dir.path("a.bullet");
    write_all(&path, FileFormat::Bulletformat, &positions);
    let mut bytes = std::fs::read(&path).unwrap();
    // Past the first four records, which say what the file is.
    bytes[32 * 4 + 8] |= 7; // record 5's first piece code
    bytes[32 * 5 + 27] ^= 1; // record 6's king square
    bytes[32 * 7 + 26] = 9; // record 8's result
    bytes.truncate(bytes.len() - 5);
    std::fs::write(&path, &bytes).unwrap();
    let err = format!("{:#}", read_all(&path, &plain()).unwrap_err());
    assert!(err.contains(&format!("record 5 at byte {}: piece code 7 is not a piece", 32 * 4)), "{err}");
    let (kept, report) = read_all(&path, &ReadOptions { skip_broken: true, ..plain() }).unwrap();
    assert_eq!((kept.len(), report.skipped), (positions.len() - 4, 4));
    let expected = [
        "record 5 at byte 128: piece code 7 is not a piece",
        "record 6 at byte 160: king squares 5 and 4 do not match the board",
        "record 8 at byte 224: result 9 is not 0, 1 or 2",
        "truncated (27 of 32 bytes)",
    ];
    for (problem, said) in report.problems.iter().zip(expected) {
        assert!(problem.contains(said), "{problem}");
    }
}

#[test]
fn a_corrupt_binpack_chunk_is_named_and_the_entries_before_it_kept() {
    let dir = TempDir::new("binpack-broken");
    let positions = game_positions(30, 12);
    let path = dir.path("good.binpack");
    write_binpack(&path, &positions);
    let (good, _) = read_all(&path, &plain()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    for at in [bytes.len() / 2, bytes.len() * 3 / 4, 8 + 40] {
        let mut bad = bytes.clone();
        for b in &mut bad[at..at + 4] {
            *b ^= 0xa5;
        }
        let path = dir.path("bad.binpack");
        std::fs::write(&path, &bad).unwrap();
        // Never a panic; what is read is the good file's entries up to the damage (a binpack has
        // no checksum: damage that still decodes changes entries silently, as in any reader).
        let (kept, report) = read_all(&path, &ReadOptions { skip_broken: true, ..plain() }).unwrap();
        let same = kept.iter().zip(&good).take_while(|(a, b)| a == b).count();
        assert!(same > 0 && same <= good.len(), "{same}");
        if report.skipped > 0 {
            assert!(report.problems[0].contains("bad.binpack: chunk 1 at byte 0"), "{:?}", report.problems);
            assert!(read_all(&path, &plain()).is_err());
        }
        println!(
            "damage at {at}: {same} of {} kept, {} kept in all, problems {:?}",
            good.len(),
            kept.len(),
            report.problems
        );
    }
}

#[test]
fn a_format_that_does_not_match_its_name_is_said() {
    let dir = TempDir::new("mismatch");
    let (vf, _, bytes) = viri_file(&dir, "a.vf", 2);
    let named_bullet = dir.path("a.data");
    std::fs::write(&named_bullet, &bytes).unwrap();
    let err = read_all(&named_bullet, &plain()).unwrap_err().to_string();
    assert!(err.contains("is bulletformat by its extension, but its first record is not"), "{err}");
    assert!(err.contains("give --from viriformat"), "{err}");
    // --from says what it is; without an extension the content decides.
    assert!(read_all(&named_bullet, &ReadOptions { from: Some(FileFormat::Viriformat), ..plain() }).is_ok());
    let bare = dir.path("bare");
    std::fs::copy(&vf, &bare).unwrap();
    assert_eq!(read_all(&bare, &plain()).unwrap().1.format, Some(FileFormat::Viriformat));
    let text_named_vf = dir.path("t.vf");
    std::fs::write(&text_named_vf, "8/8/8/8/8/8/8/K6k w - - | 0 | 0.5\n").unwrap();
    let err = read_all(&text_named_vf, &plain()).unwrap_err().to_string();
    assert!(err.contains("is viriformat by its extension, but its content is a text file"), "{err}");
    // Nothing is overwritten without --force.
    let err = create(&vf, FileFormat::Viriformat, false).err().unwrap().to_string();
    assert!(err.contains("exists: give --force"), "{err}");
}

#[test]
fn the_tools_stream_files_larger_than_the_memory_they_are_given() {
    use crate::dataset::tools::{
        dedupe::dedupe,
        sample::{sample, Amount},
        shuffle::shuffle,
    };
    let dir = TempDir::new("tools");
    // 12,000 positions (each game twice, so half are duplicates): about 3 MB in the tools'
    // memory, against a limit of 1 MiB.
    let once = game_positions(100, 7);
    let mut positions = once.clone();
    positions.extend(once.iter().cloned());
    let input = dir.path("in.vf");
    write_all(&input, FileFormat::Viriformat, &positions);
    let n = positions.len();
    assert!(n * crate::dataset::tools::bucket::BYTES_IN_MEMORY > 2 << 20, "{n}");

    let out = dir.path("shuffled.txt");
    let mut writer = create(&out, FileFormat::Text, false).unwrap();
    let (_, buckets) = shuffle(&input, &plain(), writer.as_mut(), 3, 1).unwrap();
    writer.finish().unwrap();
    assert!(buckets >= 2, "{buckets}");
    let (shuffled, _) = read_all(&out, &plain()).unwrap();
    assert_ne!(shuffled, positions);
    let sorted = |mut v: Vec<(String, Label)>| {
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.score.cmp(&b.1.score)));
        v
    };
    let with_scores: Vec<(String, Label)> = positions
        .iter()
        .map(|(f, l)| (f.clone(), Label { score: Some(l.score.unwrap_or(0)), ..*l }))
        .collect();
    assert_eq!(sorted(shuffled.clone()), sorted(with_scores.clone()));
    // Seeded: the same again.
    let out2 = dir.path("shuffled2.txt");
    let mut writer = create(&out2, FileFormat::Text, false).unwrap();
    shuffle(&input, &plain(), writer.as_mut(), 3, 1).unwrap();
    writer.finish().unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&out2).unwrap());

    let out = dir.path("unique.txt");
    let mut writer = create(&out, FileFormat::Text, false).unwrap();
    let (_, report) = dedupe(&input, &plain(), writer.as_mut(), 1).unwrap();
    writer.finish().unwrap();
    let (unique, _) = read_all(&out, &plain()).unwrap();
    let mut seen = std::collections::HashSet::new();
    let expected: Vec<(String, Label)> = with_scores
        .iter()
        .filter(|(f, _)| seen.insert(Position::from_fen(f).unwrap().key()))
        .cloned()
        .collect();
    assert!(report.buckets >= 2 && report.duplicates as usize >= n / 2, "{report:?}");
    assert_eq!(unique, expected, "the first of each, in file order");

    let out = dir.path("sample.txt");
    let mut writer = create(&out, FileFormat::Text, false).unwrap();
    let (_, kept) = sample(&input, &plain(), writer.as_mut(), Amount::Count(1000), 9).unwrap();
    writer.finish().unwrap();
    let (sampled, _) = read_all(&out, &plain()).unwrap();
    assert_eq!((kept, sampled.len()), (1000, 1000));
    let mut rest = with_scores.iter();
    assert!(sampled.iter().all(|s| rest.any(|p| p == s)), "a subsequence, in file order");
}

/// Read throughput on one core, ours against the crates' own readers, on 1M positions of random
/// games (about 60 plies each, so viriformat chains as datagen's do), every position scored:
/// `WHETSTONE_MEASURE=1 cargo test --release -p whetstone-tuner -- --ignored read_throughput --nocapture`
/// (take `flock /tmp/whetstone-machine.lock` around it on a shared machine).
#[test]
#[ignore]
fn read_throughput() {
    if !crate::testutil::measuring("read_throughput") {
        return;
    }
    use std::time::Instant;
    let dir = TempDir::new("throughput");
    let mut positions = Vec::new();
    let mut seed = 100;
    while positions.len() < 1_000_000 {
        positions.extend(game_positions(1000, seed).into_iter().filter(|(_, l)| l.score.is_some()));
        seed += 1;
    }
    positions.truncate(1_000_000);
    let n = positions.len() as f64;
    let files: Vec<(FileFormat, PathBuf)> = [
        (FileFormat::Text, "t.txt"),
        (FileFormat::Epd, "t.epd"),
        (FileFormat::Viriformat, "t.vf"),
        (FileFormat::Bulletformat, "t.bullet"),
        (FileFormat::Binpack, "t.binpack"),
    ]
    .into_iter()
    .map(|(f, name)| (f, dir.path(name)))
    .collect();
    for (format, path) in &files {
        let started = Instant::now();
        if *format == FileFormat::Binpack {
            // No writer of ours: sfbinpack's, chaining each game's positions (its time is not ours).
            write_binpack(path, &positions);
            let bytes = std::fs::metadata(path).unwrap().len();
            println!("binpack (written by sfbinpack): {:.1} bytes/position", bytes as f64 / n);
            continue;
        }
        write_all(path, *format, &positions);
        let bytes = std::fs::metadata(path).unwrap().len();
        println!(
            "write {format}: {:.2} M positions/s, {:.1} bytes/position",
            n / started.elapsed().as_secs_f64() / 1e6,
            bytes as f64 / n
        );
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| {
        for (format, path) in &files {
            let started = Instant::now();
            let mut count = 0u64;
            read(path, &plain(), &mut |_, _| {
                count += 1;
                Ok(())
            })
            .unwrap();
            assert_eq!(count as f64, n);
            println!(
                "read {format} (ours, to positions): {:.2} M positions/s",
                n / started.elapsed().as_secs_f64() / 1e6
            );
        }
        // The crates' own readers.
        let vf = &files[2].1;
        let started = Instant::now();
        let mut reader = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(vf).unwrap());
        let mut count = 0u64;
        let mut buffer = Vec::new();
        while let Ok(game) = viriformat::dataformat::Game::deserialise_from(&mut reader, buffer) {
            game.visit_positions(|_, _| count += 1);
            buffer = game.into_move_buffer();
        }
        assert_eq!(count as f64, n);
        println!(
            "read viriformat (the crate: deserialise_from + visit_positions): {:.2} M positions/s",
            n / started.elapsed().as_secs_f64() / 1e6
        );
        let started = Instant::now();
        let mut count = 0u64;
        bulletformat::DataLoader::<bulletformat::ChessBoard>::new(&files[3].1, 64)
            .unwrap()
            .map_positions(|_| count += 1);
        assert_eq!(count as f64, n);
        println!(
            "read bulletformat (the crate: DataLoader::map_positions): {:.2} M positions/s",
            n / started.elapsed().as_secs_f64() / 1e6
        );
        let started = Instant::now();
        let mut reader =
            sfbinpack::CompressedTrainingDataEntryReader::new(std::fs::File::open(&files[4].1).unwrap()).unwrap();
        let mut count = 0u64;
        while reader.has_next() {
            std::hint::black_box(reader.next());
            count += 1;
        }
        assert_eq!(count as f64, n);
        println!(
            "read binpack (the crate: CompressedTrainingDataEntryReader, to its entries): {:.2} M positions/s",
            n / started.elapsed().as_secs_f64() / 1e6
        );
        let started = Instant::now();
        let (values, _) =
            crate::dataset::load::load(&files[1].1, &crate::dataset::LoadOptions::default(), |_, _| ()).unwrap();
        assert_eq!(values.len() as f64, n);
        println!(
            "load epd (tune texel's parallel text loader, 1 thread): {:.2} M positions/s",
            n / started.elapsed().as_secs_f64() / 1e6
        );
    });
}

/// An OpenBench-style archive: bzip2-compressed PGN members in a tar.
fn archive(path: &Path, members: &[(&str, Vec<u8>)]) {
    let mut builder = tar::Builder::new(std::fs::File::create(path).unwrap());
    for (name, data) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, &data[..]).unwrap();
    }
    builder.finish().unwrap();
}

fn bz2(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn an_archive_reads_as_its_pgns_and_names_a_corrupt_member_and_an_illegal_move() {
    let dir = TempDir::new("archive");
    let games = include_str!("../../testdata/games.pgn");
    // OpenBench's compact comments on a short game of its own.
    let compact = "[Event \"ob\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
                   e4 {+0.30/9} e5 {-0.25/10} Qh5 {+0.10/8, line=x} Nc6 {book} Bc4 {unknown} Nf6 {-0.5/7} Qxf7# {+1.00/5} 1-0\n\n";
    let illegal =
        "[Event \"bad\"]\n[White \"c\"]\n[Black \"d\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n";
    let mut corrupt = bz2(games);
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0xff;
    let path = dir.path("7.pgn.tar");
    archive(
        &path,
        &[
            ("7.1.0.pgn.bz2", bz2(games)),
            ("7.2.1.pgn.bz2", corrupt),
            ("7.3.2.pgn.bz2", bz2(&format!("{compact}{illegal}"))),
        ],
    );
    let options =
        ReadOptions { pgn: crate::dataset::pgn::PgnOptions { skip_plies: 0, resolve: false }, ..plain() };
    let (from_archive, report) = read_all(&path, &options).unwrap();
    assert_eq!(report.format, Some(FileFormat::Archive));
    assert_eq!(report.members, Some((3, 1)));
    assert!(
        report.problems[0].contains("member 7.2.1.pgn.bz2") && report.problems[0].contains("bzip2"),
        "{:?}",
        report.problems
    );
    let games_report = report.games.clone().unwrap();
    assert_eq!(games_report.broken, 1);
    assert!(
        games_report.problems[0].starts_with("7.3.2.pgn.bz2: game 2 (c - d): move 2. Ke3: illegal"),
        "{:?}",
        games_report.problems
    );
    // The same positions as the PGNs read directly (one set of duplicates across both).
    let plain_pgn = dir.path("all.pgn");
    std::fs::write(&plain_pgn, format!("{games}\n{compact}{illegal}")).unwrap();
    let (direct, _) = read_all(&plain_pgn, &options).unwrap();
    assert_eq!(from_archive, direct);
    // The compact comments' scores, White's view: Black's {-0.5/7} before Nf6 is +50 for White.
    let before_nf6 = from_archive
        .iter()
        .find(|(f, _)| f.starts_with("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b"))
        .expect("the position before Nf6 is kept");
    assert_eq!(before_nf6.1, Label { outcome: 1.0, score: Some(50) });
}
