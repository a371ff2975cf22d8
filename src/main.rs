fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let fen = if args.len() > 2 { args[2..].join(" ") } else { whetstone::board::START_FEN.to_string() };
    let mut pos = whetstone::Position::from_fen(&fen).unwrap();
    let d = whetstone::movegen::perft::perft_divide(&mut pos, depth);
    print!("{}", d.report(&pos));
}
