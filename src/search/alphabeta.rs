//! The principal variation search and the quiescence search, with their pruning, reductions and
//! extensions. Steps are numbered as in Ethereal so the order of decisions is easy to follow.

use arrayvec::ArrayVec;

use crate::movegen::{quiet_checks, CheckInfo, MoveList, MAX_MOVES};
use crate::types::{Move, PieceType};

use super::baked::idx;
use super::correction::{CorrectionWeights, LastMoves};
use super::history::{piece_to, MAX_PLY, NO_PIECE_TO};
use super::movepick::{is_noisy, MovePicker};
use super::see::{see_ge, SEE_VALUE};
use super::tt::{Bound, TtEntry};
use super::{Searcher, INFINITY, MATE, MATE_BOUND};

/// Double singular extensions allowed on one line from the root (they could otherwise make a
/// search that never reaches its horizon).
const MAX_DOUBLE_EXTENSIONS: u8 = 6;

impl Searcher<'_> {
    /// Negamax principal variation search. Returns a score from the side to move's view.
    /// `cut_node`: a zero-window node expected to fail high (the child of a reduced or
    /// zero-window search of a late move), where late moves are reduced more.
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = 0;

        // Step 1. Quiescence search at the horizon.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.count_node(ply);
        if self.should_stop() {
            return 0;
        }

        // Step 2. Draws and mate-distance pruning (never at the root: it must return a move).
        if !root {
            if self.is_draw(ply) {
                return self.draw_score();
            }
            if ply >= MAX_PLY {
                return self.static_eval();
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.pos.in_check();
        if !in_check {
            self.history.correction.prefetch(&self.pos, self.correction_weights());
        }

        // Step 3. Transposition table: a cutoff in non-PV nodes, a move to try first everywhere.
        // A singular-extension search (a move excluded) must not use or overwrite this
        // position's entry as if it had searched every move.
        let excluded = self.excluded[ply];
        let key = self.pos.key();
        let entry = if excluded.is_null() { self.tt.probe(key) } else { None };
        let tt_move = entry.map_or(Move::NULL, |e| e.best_move);
        // A node that is or was on a principal variation (Stockfish's ttPv); a singular-extension
        // search of the same node keeps the node's own flag.
        let tt_pv =
            if excluded.is_null() { pv_node || entry.is_some_and(|e| e.was_pv) } else { self.tt_pv[ply] };
        self.tt_pv[ply] = tt_pv;
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node && e.depth >= depth {
                let cutoff = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                };
                if cutoff {
                    return score;
                }
            }
        }

        // Step 4. Static evaluation (from the table when there is one). The table keeps the raw
        // evaluation; the search prunes by it corrected with what earlier searches of the same
        // structures found (the correction history).
        let raw_eval = if in_check {
            -INFINITY
        } else {
            match entry {
                Some(e) => e.eval,
                None => self.static_eval(),
            }
        };
        let static_eval = if in_check { -INFINITY } else { self.corrected(raw_eval, ply) };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        let p = self.params;
        // What the pruning below compares with beta and alpha: the table's score when its bound
        // says the position is worth more (or less) than the static evaluation (`tt.eval_from_score`).
        let eval = if in_check { static_eval } else { self.with_table_score(static_eval, entry, ply) };

        if !in_check && !pv_node && excluded.is_null() {
            // Step 5a. Razoring: far below alpha near the horizon, only a capture can help; if
            // quiescence cannot lift the score to alpha either, trust it.
            if p[idx::RAZOR_MARGIN] > 0 && depth <= 3 && eval + p[idx::RAZOR_MARGIN] * depth <= alpha {
                let score = self.qsearch(alpha, alpha + 1, ply, 0);
                if self.stopped {
                    return 0;
                }
                if score <= alpha {
                    return score;
                }
            }
            // Step 5. Reverse futility pruning: far above beta at low depth, assume a cutoff.
            let margin = p[idx::RFP_MARGIN] * (depth - improving as i32);
            if depth <= p[idx::RFP_MAX_DEPTH] && eval - margin >= beta && eval < MATE_BOUND {
                return eval;
            }
            // Step 6. Null-move pruning: if passing still beats beta, a real move will too.
            // Not with pawns only (zugzwang), nor twice in a row, nor (`nmp.tt_guard`) when
            // the table says a search of this position already failed low below beta.
            let tt_says_below =
                || entry.is_some_and(|e| e.bound == Bound::Upper && score_from_tt(e.score, ply) < beta);
            if depth >= 3
                && eval >= beta
                && !(p[idx::NMP_TT_GUARD] > 0 && tt_says_below())
                && !self.pos.state().last_move.is_null()
                && self.has_non_pawn_material()
                && beta > -MATE_BOUND
            {
                let r = p[idx::NMP_BASE]
                    + depth / p[idx::NMP_DEPTH_DIVISOR]
                    + ((eval - beta) / p[idx::NMP_EVAL_DIVISOR]).min(3);
                self.moved[ply + 2] = NO_PIECE_TO;
                self.pos.make_null_move();
                let score = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
            // Step 6b. ProbCut: a good capture whose shallow search beats beta by a margin
            // would almost surely beat beta at full depth too. Not when the table already says
            // a search this deep stays below that bound.
            let probcut_beta = beta + p[idx::PROBCUT_MARGIN];
            if p[idx::PROBCUT_MARGIN] > 0
                && depth >= 5
                && beta.abs() < MATE_BOUND
                && !entry.is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < probcut_beta)
            {
                if let Some((score, m)) = self.probcut(probcut_beta, eval, depth, ply, cut_node, tt_move) {
                    self.tt.store(key, m, score_to_tt(score, ply), raw_eval, depth - 3, Bound::Lower, tt_pv);
                    return score;
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this node is probably less
        // important than the table thought; search it shallower (from `iir.min_depth`).
        let iir_depth = p[idx::IIR_MIN_DEPTH];
        if iir_depth > 0 && depth >= iir_depth && tt_move.is_null() && excluded.is_null() {
            depth -= 1;
        }

        // Step 8. The move loop.
        let killers = self.history.killers[ply];
        let counter = self.history.counter_move(&self.pos);
        let conts = self.last_moves(ply);
        let mut picker = MovePicker::new(&self.pos, tt_move, killers, counter, conts);
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0usize;
        // On the stack, uninitialised until pushed: two heap lists per node cost about 1% of the search.
        let mut quiets_tried: ArrayVec<Move, MAX_MOVES> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, MAX_MOVES> = ArrayVec::new();
        let original_alpha = alpha;
        // Made when the first move asks for it (nodes that cut off before their moves never do).
        let mut check_info: Option<CheckInfo> = None;
        while let Some(m) = picker.next(&self.pos, self.history) {
            if m == excluded || (root && self.excluded_root_moves.contains(&m)) {
                continue;
            }
            let quiet = !is_noisy(&self.pos, m);
            let gives_check =
                check_info.get_or_insert_with(|| CheckInfo::new(&self.pos)).gives_check(&self.pos, m);

            // Step 9. Pruning of late moves at low depth, once a move has been searched.
            if !root && best_score > -MATE_BOUND && moves_searched > 0 {
                if quiet && !in_check && !gives_check {
                    // Late-move pruning: enough quiet moves tried.
                    let limit = (p[idx::LMP_BASE] + depth * depth) as usize / if improving { 1 } else { 2 };
                    if depth <= p[idx::LMP_MAX_DEPTH] && quiets_tried.len() >= limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // The depth the rest judges the move by: the node's, or (`prune.reduced_depth`)
                    // what its late-move reduction would leave, as Ethereal's lmrDepth: a move
                    // that would be searched shallow needs less evidence to be dropped.
                    let prune_depth = if p[idx::PRUNE_REDUCED_DEPTH] > 0 {
                        (depth - p.reduction(depth, moves_searched)).max(0)
                    } else {
                        depth
                    };
                    // Futility pruning: even a good quiet move cannot lift the score to alpha
                    // (later moves are reduced at least as much, so none of them can either).
                    // With `futility.history_gate`, Ethereal's first tier also drops quiets of a
                    // poor record by the smaller margin without the base (quiets come in history
                    // order, so the rest have no better record).
                    if prune_depth <= p[idx::FUTILITY_MAX_DEPTH] {
                        let margin = p[idx::FUTILITY_PER_DEPTH] * prune_depth;
                        let gate = p[idx::FUTILITY_HISTORY_GATE] / (1 + improving as i32);
                        let poor_record = || self.history.quiet_score(&self.pos, m, conts) < gate;
                        if eval + p[idx::FUTILITY_BASE] + margin <= alpha
                            || (gate > 0 && eval + margin <= alpha && poor_record())
                        {
                            picker.skip_quiets();
                            continue;
                        }
                    }
                    // History pruning: quiet moves that kept failing after these predecessors.
                    if p[idx::HISTORY_PRUNE_MARGIN] > 0
                        && prune_depth <= 3
                        && self.history.quiet_score(&self.pos, m, conts)
                            < -p[idx::HISTORY_PRUNE_MARGIN] * prune_depth
                    {
                        continue;
                    }
                    // Continuation-history pruning (`history.cont_prune`), as Ethereal's: at low
                    // depth a quiet move that failed after the move one ply back, or failed badly
                    // after the move two plies back, is dropped, each table judged on its own
                    // (and less readily while the evaluation is improving).
                    if p[idx::HISTORY_CONT_PRUNE] > 0 && prune_depth <= 3 - improving as i32 {
                        let [one_back, two_back] = self.history.continuation_scores(&self.pos, m, conts);
                        let (one_limit, two_limit) = if improving { (-1000, -4000) } else { (0, -2000) };
                        if one_back < one_limit || two_back < two_limit {
                            continue;
                        }
                    }
                    // SEE pruning of quiet moves that hang material: by a margin growing with the
                    // square of the depth, or (`see.quiet_linear`) Ethereal's linear one, which
                    // still prunes at the depths a longer search spends its nodes in.
                    let see_margin = if p[idx::SEE_QUIET_LINEAR] > 0 {
                        (prune_depth <= 9).then(|| -p[idx::SEE_QUIET_LINEAR] * prune_depth)
                    } else {
                        (p[idx::SEE_QUIET_MARGIN] > 0 && prune_depth <= 8)
                            .then(|| -p[idx::SEE_QUIET_MARGIN] * prune_depth * prune_depth)
                    };
                    if see_margin.is_some_and(|margin| !see_ge(&self.pos, m, margin)) {
                        continue;
                    }
                }
                // SEE pruning of captures that lose too much material: linearly to depth 6, or
                // (`see.capture_quadratic`) by the square of the depth to depth 9, as Ethereal.
                if !quiet {
                    let see_margin = if p[idx::SEE_CAPTURE_QUADRATIC] > 0 {
                        (depth <= 9).then(|| -p[idx::SEE_CAPTURE_QUADRATIC] * depth * depth)
                    } else {
                        (depth <= 6).then(|| -p[idx::SEE_CAPTURE_MARGIN] * depth)
                    };
                    if see_margin.is_some_and(|margin| !see_ge(&self.pos, m, margin)) {
                        continue;
                    }
                }
            }

            // The move will be searched: start loading its table entry now.
            self.tt.prefetch(self.pos.key_after(m));

            // Step 10. Extensions. Singular: when the hash move scored well at nearly this depth
            // and no other move comes close in a reduced search without it, it is the only good
            // move here: search it deeper. If another move also beats beta, cut off (multi-cut);
            // if the hash move alone was expected to fail high, search it shallower instead.
            let mut extension = 0;
            if let Some(e) = entry.filter(|e| {
                !root
                    && m == tt_move
                    && depth >= p[idx::SINGULAR_MIN_DEPTH]
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    && score_from_tt(e.score, ply).abs() < MATE_BOUND
            }) {
                let tt_score = score_from_tt(e.score, ply);
                let singular_beta = tt_score - p[idx::SINGULAR_MARGIN] * depth / 8;
                self.excluded[ply] = m;
                let score = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
                self.excluded[ply] = Move::NULL;
                self.pv_len[ply] = 0;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    // Far below: extend twice, a bounded number of times on any one line.
                    let double = p[idx::SINGULAR_DOUBLE_MARGIN] > 0
                        && !pv_node
                        && score < singular_beta - p[idx::SINGULAR_DOUBLE_MARGIN]
                        && self.double_extensions[ply] < MAX_DOUBLE_EXTENSIONS;
                    extension = 1 + double as i32;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    extension = -1;
                }
            }
            // Check extension, for checks that do not lose material (a losing check rarely
            // leads anywhere and extending it costs a ply of depth elsewhere); or
            // (`extension.in_check`) Ethereal's, every move of a node in check, below the root.
            if extension == 0 {
                extension = if p[idx::EXTENSION_IN_CHECK] > 0 {
                    (in_check && !root) as i32
                } else {
                    (gives_check && see_ge(&self.pos, m, 0)) as i32
                };
            }
            // History extension (`extension.history`): an early quiet move that both moves before
            // it have made strong, as Ethereal's.
            let history_extension = p[idx::EXTENSION_HISTORY];
            if extension == 0 && history_extension > 0 && quiet && !root && quiets_tried.len() < 4 {
                let [one_back, two_back] = self.history.continuation_scores(&self.pos, m, conts);
                extension = (one_back >= history_extension && two_back >= history_extension) as i32;
            }
            let mut new_depth = depth - 1 + extension;

            let history_score = if quiet {
                self.history.quiet_score(&self.pos, m, conts)
            } else {
                self.history.capture_score(&self.pos, m)
            };
            self.double_extensions[ply + 1] = self.double_extensions[ply] + (extension > 1) as u8;
            self.moved[ply + 2] = piece_to(&self.pos, m);
            let nodes_before = self.nodes;
            self.pos.make_move(m);
            moves_searched += 1;
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }

            // Step 11. Late-move reductions, then the principal variation search.
            let mut score;
            // Late captures are reduced too when `lmr.noisy` says by how much (percent of a
            // quiet move's reduction); checks never.
            let reduce_noisy = !quiet && !gives_check && p[idx::LMR_NOISY] > 0;
            if depth >= 3 && moves_searched > 1 + pv_node as usize && (quiet || reduce_noisy) {
                let mut r = p.reduction(depth, moves_searched);
                if quiet {
                    r -= pv_node as i32;
                    r += !improving as i32;
                    r -= (m == killers[0] || m == killers[1] || m == counter) as i32;
                    r -= gives_check as i32;
                } else {
                    r = r * p[idx::LMR_NOISY] / 100 - pv_node as i32;
                }
                // Well-tried moves less, failures more; within `lmr.history_clamp` plies if set.
                let history_plies = history_score / p[idx::LMR_HISTORY_DIVISOR];
                let clamp = p[idx::LMR_HISTORY_CLAMP];
                r -= if clamp > 0 { history_plies.clamp(-clamp, clamp) } else { history_plies };
                r += p[idx::LMR_CUT_NODE] * cut_node as i32;
                // Moves of a zero-window node that was on a principal variation earlier: reduced less (`lmr.tt_pv`).
                r -= p[idx::LMR_TT_PV] * (tt_pv && !pv_node) as i32;
                let r = r.clamp(0, new_depth - 1);
                let reduced_depth = new_depth - r;
                score = -self.search(-alpha - 1, -alpha, reduced_depth, ply + 1, true);
                if score > alpha && r > 0 {
                    // How far the reduced search beat the best move so far says how deep to
                    // verify it: a clear win one ply deeper, a bare one a ply shallower
                    // (`lmr.deeper_margin`, `lmr.shallower_margin`; the PV search uses the same).
                    let deeper_margin = p[idx::LMR_DEEPER_MARGIN];
                    let shallower_margin = p[idx::LMR_SHALLOWER_MARGIN];
                    if deeper_margin > 0 && score > best_score + deeper_margin + 2 * new_depth {
                        new_depth += 1;
                    } else if shallower_margin > 0 && score < best_score + shallower_margin {
                        new_depth -= 1;
                    }
                    if new_depth > reduced_depth {
                        score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    }
                }
            } else if !pv_node || moves_searched > 1 {
                score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // the first move of a PV node goes straight to the full window
            }
            if pv_node && (moves_searched == 1 || score > alpha) {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.pos.unmake_move(m);
            if root {
                self.root_nodes[m.from().index()][m.to().index()] += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }

            // Step 12. Keep the best move; raise alpha; cut off at beta.
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        self.history.record_cutoff(
                            &self.pos,
                            ply,
                            p.history_bonus(depth),
                            m,
                            quiet,
                            &quiets_tried,
                            &captures_tried,
                            conts,
                        );
                        break;
                    }
                }
            }
        }

        // Step 13. No legal move: checkmate or stalemate.
        if moves_searched == 0 {
            if !excluded.is_null() {
                return alpha; // the excluded move was the only one: it is singular
            }
            if root && !self.excluded_root_moves.is_empty() {
                return -INFINITY; // MultiPV ran out of distinct root moves
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_null() && (self.excluded_root_moves.is_empty() || !root) {
            self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval, depth, bound, tt_pv);
            // Teach the correction history when the result says which way the evaluation erred:
            // not after a capture won (the evaluation cannot see those), not from a bound on the
            // wrong side of the evaluation.
            let best_is_quiet = best_move.is_null() || !is_noisy(&self.pos, best_move);
            if !in_check
                && best_is_quiet
                && best_score.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best_score <= static_eval)
                && !(bound == Bound::Upper && best_score >= static_eval)
            {
                let (last, weights) = (self.last_moves(ply), self.correction_weights());
                self.history.correction.update(&self.pos, last, weights, depth, best_score - static_eval);
            }
        }
        best_score
    }

    /// Quiescence search: captures and queen promotions (losing ones pruned by SEE), quiet checks
    /// on its first ply, and every evasion when in check.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        self.count_node(ply);
        if self.should_stop() {
            return 0;
        }
        if self.is_draw(ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        let in_check = self.pos.in_check();
        if !in_check {
            self.history.correction.prefetch(&self.pos, self.correction_weights());
        }
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
                Bound::None => false,
            };
            if cutoff && beta - alpha == 1 {
                return score;
            }
        }

        let raw_eval = if in_check {
            -INFINITY
        } else {
            match entry {
                Some(e) => e.eval,
                None => self.static_eval(),
            }
        };
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.with_table_score(self.corrected(raw_eval, ply), entry, ply)
        };
        if stand_pat >= beta {
            if entry.is_none() {
                // Keep the evaluation: the next visit skips it.
                let score = score_to_tt(stand_pat, ply);
                self.tt.store(key, Move::NULL, score, raw_eval, 0, Bound::Lower, pv_node);
            }
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = Move::NULL;
        let mut searched = 0;

        let tt_move = entry.map_or(Move::NULL, |e| e.best_move);
        let mut picker = if in_check {
            MovePicker::new(&self.pos, tt_move, [Move::NULL; 2], Move::NULL, [NO_PIECE_TO; 2])
        } else {
            MovePicker::noisy_only(&self.pos, tt_move)
        };
        // Quiet checks (first ply only, unless `qsearch.checks` is 0 as in Ethereal 12) are
        // generated when the captures have run out: most nodes cut off before that, and
        // generating them costs more than a capture search.
        let mut checks: Option<MoveList> = None;
        let mut next_check = 0;
        loop {
            let m = match picker.next(&self.pos, self.history) {
                Some(m) => m,
                None if !in_check && qply == 0 && self.params[idx::QSEARCH_CHECKS] > 0 => {
                    let checks = checks.get_or_insert_with(|| {
                        let mut list = MoveList::new();
                        quiet_checks(&self.pos, &mut list);
                        list
                    });
                    let Some(&m) = checks.as_slice().get(next_check) else { break };
                    next_check += 1;
                    if !see_ge(&self.pos, m, 0) {
                        continue;
                    }
                    m
                }
                None => break,
            };
            // Delta pruning: this capture cannot bring the score near alpha.
            if !in_check && m.promotion_piece().is_none() {
                let victim = self.pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.piece_type().index()]);
                let victim = if m.kind() == crate::types::MoveKind::EnPassant {
                    SEE_VALUE[PieceType::Pawn.index()]
                } else {
                    victim
                };
                if victim > 0 && stand_pat + victim + self.params[idx::QSEARCH_DELTA] <= alpha {
                    continue;
                }
            }
            // Ethereal's threshold (`qsearch.see_margin`): outside check, a capture must win
            // material by exchange, and enough of it to come within the margin of alpha.
            let see_margin = self.params[idx::QSEARCH_SEE_MARGIN];
            if see_margin > 0
                && !in_check
                && is_noisy(&self.pos, m)
                && !see_ge(&self.pos, m, (alpha - stand_pat - see_margin).max(1))
            {
                continue;
            }
            self.tt.prefetch(self.pos.key_after(m));
            self.moved[ply + 2] = piece_to(&self.pos, m);
            self.pos.make_move(m);
            searched += 1;
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake_move(m);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && searched == 0 {
            return -MATE + ply as i32;
        }
        // Quiescence results are stored at depth 0: they give later visits a move, an
        // evaluation and (in non-PV nodes) a cutoff, but never cut off a real search.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound, pv_node);
        best
    }

    /// ProbCut's move loop: the captures that win at least `probcut_beta - eval` by SEE, each
    /// verified by quiescence and then by a search 4 plies shallower against `probcut_beta`.
    /// Returns the score and move of the first that holds, or None (also when stopped).
    fn probcut(
        &mut self,
        probcut_beta: i32,
        eval: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        tt_move: Move,
    ) -> Option<(i32, Move)> {
        let mut picker = MovePicker::noisy_only(&self.pos, tt_move);
        while let Some(m) = picker.next(&self.pos, self.history) {
            if !see_ge(&self.pos, m, probcut_beta - eval) {
                continue;
            }
            self.tt.prefetch(self.pos.key_after(m));
            self.moved[ply + 2] = piece_to(&self.pos, m);
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            self.pos.make_move(m);
            let mut score = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
            if score >= probcut_beta && !self.stopped {
                score = -self.search(-probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, !cut_node);
            }
            self.pos.unmake_move(m);
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                return Some((score, m));
            }
        }
        None
    }

    /// The static evaluation at `ply` corrected by the correction history, kept clear of mate
    /// scores.
    fn corrected(&self, raw_eval: i32, ply: usize) -> i32 {
        let weights = self.correction_weights();
        let correction = self.history.correction.value(&self.pos, self.last_moves(ply), weights);
        (raw_eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The evaluation the pruning compares with alpha and beta: `eval`, or with `tt.eval_from_score`
    /// on, the table's score where its bound says the position is worth more or less than that.
    fn with_table_score(&self, eval: i32, entry: Option<TtEntry>, ply: usize) -> i32 {
        match entry {
            Some(e) if self.params[idx::TT_EVAL_FROM_SCORE] != 0 => {
                tt_bounded_eval(eval, e.bound, score_from_tt(e.score, ply))
            }
            _ => eval,
        }
    }

    fn correction_weights(&self) -> CorrectionWeights {
        CorrectionWeights {
            pawn: self.params[idx::CORR_PAWN],
            non_pawn: self.params[idx::CORR_NON_PAWN],
            minor: self.params[idx::CORR_MINOR],
            continuation: self.params[idx::CORR_CONTINUATION],
        }
    }

    /// The moves that led to the node at `ply`: the last one, then the one before it.
    fn last_moves(&self, ply: usize) -> LastMoves {
        [self.moved[ply + 1], self.moved[ply]]
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    fn has_non_pawn_material(&self) -> bool {
        let us = self.pos.side_to_move();
        (self.pos.pieces_of(us)
            & !self.pos.pieces(us, PieceType::Pawn)
            & !self.pos.pieces(us, PieceType::King))
        .any()
    }
}

/// The static evaluation, or the table's score where its bound says the position is worth more
/// (a lower bound above it) or less (an upper bound below it); never a mate score.
fn tt_bounded_eval(static_eval: i32, bound: Bound, tt_score: i32) -> i32 {
    let beyond = match bound {
        Bound::Exact => true,
        Bound::Lower => tt_score > static_eval,
        Bound::Upper => tt_score < static_eval,
        Bound::None => false,
    };
    if beyond && tt_score.abs() < MATE_BOUND {
        tt_score
    } else {
        static_eval
    }
}

/// Mate scores are stored relative to the node, not the root, so they stay right elsewhere.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
#[path = "alphabeta_tests.rs"]
mod tests;
