#!/usr/bin/env python3
"""Oracle check of `tune dataset convert` on PGN games and OpenBench archives, by python-chess.

Replays every game of the input (a PGN file, plain or .bz2, or an OpenBench `.pgn.tar` of
bzip2-compressed PGNs) with python-chess and checks that the converted file (`--to text`:
`<FEN> | <score> | <result>`) is a subsequence of the games' positions, in order, each with its
game's result and the score of the move played from it (OpenBench's and cutechess's `{+0.35/12}`
comments, pawns from the mover's view; 0 where the comment has none). A member that python-chess
cannot decompress is skipped, as `tune` skips it. Prints the counts; exits non-zero on a mismatch.

Usage: scripts/check_archive_positions.py <archive.pgn.tar|games.pgn> <converted.txt>
"""

import bz2
import io
import re
import sys
import tarfile

import chess
import chess.pgn

SCORE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)/\d+")


def pgn_texts(path):
    if path.endswith(".tar"):
        with tarfile.open(path) as tar:
            for member in tar.getmembers():
                if not member.isfile():
                    continue
                data = tar.extractfile(member).read()
                try:
                    yield member.name, bz2.decompress(data).decode() if data[:3] == b"BZh" else data.decode()
                except (OSError, ValueError) as e:
                    print(f"skipped member {member.name}: {e}")
    else:
        data = open(path, "rb").read()
        yield path, (bz2.decompress(data) if data[:3] == b"BZh" else data).decode()


def positions(path):
    """Every position of every finished game, the last one included: (FEN, White's score of
    the move played from it or 0, result for White)."""
    results = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    for name, text in pgn_texts(path):
        stream = io.StringIO(text)
        while (game := chess.pgn.read_game(stream)) is not None:
            result = results.get(game.headers.get("Result"))
            if result is None:
                continue
            board = game.board()
            for node in game.mainline():
                match = SCORE.match(node.comment or "")
                score = round(float(match.group(1)) * 100) if match else 0
                white = score if board.turn == chess.WHITE else -score
                yield board.fen(en_passant="fen"), white, result
                board.push(node.move)
            # The final position: no move was played from it, so no score.
            yield board.fen(en_passant="fen"), 0, result


def same_fen(ours, theirs):
    # The en-passant field may differ (written only when a capture is possible, or after any
    # double push): compare the other fields.
    a, b = ours.split(), theirs.split()
    return a[:3] + a[4:] == b[:3] + b[4:] and (a[3] == b[3] or "-" in (a[3], b[3]))


def main():
    archive, converted = sys.argv[1], sys.argv[2]
    theirs = positions(archive)
    checked = 0
    for n, line in enumerate(open(converted), 1):
        fen, score, result = (f.strip() for f in line.split("|"))
        for their_fen, their_score, their_result in theirs:
            if same_fen(fen, their_fen):
                if (int(score), float(result)) != (their_score, their_result):
                    sys.exit(f"{converted}:{n}: {fen}: score/result {score}/{result}, python-chess {their_score}/{their_result}")
                checked += 1
                break
        else:
            sys.exit(f"{converted}:{n}: {fen} is not among python-chess's positions (in order)")
    print(f"{checked} positions of {converted} match python-chess's replay of {archive}, in order")


if __name__ == "__main__":
    main()
