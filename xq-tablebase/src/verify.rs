//! The forward pass: every position's value agrees with its successors'.

use crate::gen::{CaptureValues, FirstError, InMemory, Table};
use crate::index::{Layout, Placement, MAX_PIECES};
use crate::value::{Rule, TableValue};
use crate::TablebaseError;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use xq_core::{Color, Piece, Position, Square};

/// The order of values for the side to move by which the best move's value is the
/// position's: [`TableValue::rank`], then, between results of the rules, a win by
/// perpetual check above one that needs the chase rule (or whose rule a file did not
/// record) and a loss that needs the chase rule above one by perpetual check. A win needs
/// the chase rule when no move keeps a win by perpetual check alone; a loss needs it
/// when some move leads to the winner's win that needs it.
fn order(v: TableValue) -> (i32, i8) {
    let check = v.rule() == Some(Rule::PerpetualCheck);
    let tie = match v {
        TableValue::RuleWin { .. } if check => 1,
        TableValue::RuleLoss { .. } if check => -1,
        _ => 0,
    };
    (v.rank(), tie)
}

/// Two results of the rules, the same but for the rule, which one of them does not
/// record (a table of format version 3, or a move into one): they agree, since that file
/// cannot say otherwise.
fn same_unrecorded(a: TableValue, b: TableValue) -> bool {
    a.result() == b.result()
        && a.by_rule()
        && b.by_rule()
        && (a.rule().is_none() || b.rule().is_none())
}

/// Checks `table` by a forward pass: every number is broken exactly when it is no legal
/// position, and every position's value follows from its moves' values (a side with no
/// legal move has lost; otherwise the best of its moves, each worth the opposite of the
/// position it leads to, one ply further). `subtables` must hold the tables the captures
/// lead to (as for [`generate`](crate::generate)). Returns the number of legal positions
/// checked; `progress` gets the numbers done so far.
///
/// # Errors
/// [`TablebaseError::MissingTable`] when a table a capture leads to is not given;
/// [`TablebaseError::Mismatch`] for the first position whose value is wrong.
///
/// ```
/// use xq_tablebase::{generate, verify, Ending};
/// let krk: Ending = "KRK".parse().unwrap();
/// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
/// assert_eq!(verify(&table, &[], 1, &|_| {}).unwrap(), table.stats().positions());
/// ```
pub fn verify(
    table: &Table,
    subtables: &[&Table],
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, TablebaseError> {
    crate::gen::check_captures(&table.layout.ending, subtables)?;
    forward(table, &InMemory(subtables), threads, progress)
}

/// The forward pass of [`verify`], reading the values of the positions the captures
/// lead to from `subs`.
///
/// # Errors
/// As [`verify`], and from reading the tables the captures lead to.
pub(crate) fn forward(
    table: &Table,
    subs: &dyn CaptureValues,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, TablebaseError> {
    let ending = table.layout.ending;
    let layout = &table.layout;
    let failure = FirstError::default();
    let checked = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    crate::gen::parallel(threads.max(1), layout.size, |range| {
        if failure.failed() {
            return;
        }
        let mut p = [Square::A0; MAX_PIECES];
        let mut n = 0;
        for i in range.clone() {
            let canonical = layout.decode(i, &mut p);
            for side in Color::ALL {
                let stored = TableValue::from_code(table.code(side, i));
                let pos = if canonical {
                    layout.position(&p, side)
                } else {
                    None
                };
                let expected = pos.map(|mut pos| {
                    n += 1;
                    let v = by_moves(
                        &mut pos,
                        &mut |c, taken| subs.capture_value(&ending, c, taken),
                        &mut |child| table.value_of(child).unwrap_or(TableValue::Draw),
                    );
                    v.map(|v| (v, pos))
                });
                if let Err(e) = expected
                    .transpose()
                    .and_then(|expected| agrees(layout, &p, expected, stored))
                {
                    failure.set(e);
                }
            }
        }
        checked.fetch_add(n, Relaxed);
        let d = done.fetch_add(range.end - range.start, Relaxed) + range.end - range.start;
        progress(d);
    });
    failure.or(checked.into_inner())
}

/// The value of `pos` (a position of an ending, the attacking side as Red) by its
/// moves: the best of its children's values for the mover, one ply further (a side with
/// no legal move has lost). A capture's child is valued by `capture` (given the piece
/// taken); the child of any other move, a position of this table, by `child`.
///
/// # Errors
/// The first error of `capture`.
pub(crate) fn by_moves(
    pos: &mut Position,
    capture: &mut dyn FnMut(&Position, Piece) -> Result<TableValue, TablebaseError>,
    child: &mut dyn FnMut(&Position) -> TableValue,
) -> Result<TableValue, TablebaseError> {
    let mut best: Option<TableValue> = None;
    for m in xq_movegen::legal_moves(pos) {
        let captured = pos.piece_on(m.to());
        let undo = pos.make_move(m);
        let value = match captured {
            Some(c) => capture(pos, c),
            None => Ok(child(pos)),
        };
        pos.unmake_move(m, undo);
        let v = value?.for_mover();
        if best.is_none_or(|b| order(v) > order(b)) {
            best = Some(v);
        }
    }
    Ok(best.unwrap_or(TableValue::Loss { plies: 0 }))
}

/// Whether the value `stored` for the placement `p` agrees with what its moves give
/// (`expected`, with the position; `None` where it is no legal position): the mismatch
/// otherwise.
pub(crate) fn agrees(
    layout: &Layout,
    p: &Placement,
    expected: Option<(TableValue, Position)>,
    stored: Option<TableValue>,
) -> Result<(), TablebaseError> {
    let ok = match (&expected, stored) {
        (None, None) => true,
        (Some((e, _)), Some(s)) => *e == s || same_unrecorded(*e, s),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let position = match &expected {
        Some((_, pos)) => pos.to_fen(),
        None => {
            let pieces: Vec<String> = layout
                .slots
                .iter()
                .zip(p.iter())
                .map(|(pc, s)| format!("{pc}{s}"))
                .collect();
            pieces.join(" ")
        }
    };
    Err(TablebaseError::Mismatch {
        ending: layout.ending,
        position,
        stored,
        expected: expected.map(|(e, _)| e),
    })
}
