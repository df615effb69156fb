//! Every term of the evaluation on hand-made positions: it fires with the right sign and
//! count, and not in a control position that lacks the feature.
//!
//! `term(fen, RANGE)` lists the term's weights that occur, as (offset in the term, count):
//! counts are Red's occurrences less Black's.

use std::ops::Range;
use xq_core::Position;
use xq_eval::endgame::{scale, SCALE_MAX};
use xq_eval::params::*;
use xq_eval::{breakdown, trace};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn term(fen: &str, range: Range<usize>) -> Vec<(usize, i32)> {
    trace(&pos(fen))
        .features
        .into_iter()
        .filter(|(p, _)| range.contains(p))
        .map(|(p, n)| (p - range.start, n))
        .collect()
}

/// The named term's tapered value in the breakdown (Red's view).
fn value(fen: &str, name: &str) -> i32 {
    breakdown(&pos(fen)).term(name).unwrap().value
}

/// The middlegame part of a term: the patterns of the attack on a general are judged by
/// it. The tuner fits the endgame part on its own, and on the bare boards of these tests
/// (phase near 0) it may go either way.
fn middlegame(fen: &str, name: &str) -> i32 {
    breakdown(&pos(fen)).term(name).unwrap().mg
}

#[test]
fn tempo_counts_for_the_side_to_move() {
    let red = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b";
    assert_eq!(term(red, TEMPO), [(0, 1)]);
    assert_eq!(term(black, TEMPO), [(0, -1)]);
    assert!(value(red, "tempo") > 0);
}

#[test]
fn material_counts_the_difference() {
    // Black has lost a chariot and a soldier.
    let fen = "1nbakabnr/9/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(term(fen, MATERIAL), [(4, 1), (6, 1)]);
    assert!(value(fen, "material") > 900);
    assert_eq!(
        term(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            MATERIAL
        ),
        []
    );
}

#[test]
fn placement_is_mirrored_and_shared_by_colour() {
    // The start: every placement weight cancels out.
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    for r in [
        PST_GENERAL,
        PST_ADVISOR,
        PST_ELEPHANT,
        PST_HORSE,
        PST_CHARIOT,
        PST_CANNON,
    ] {
        assert_eq!(term(start, r), []);
    }
    // A Red horse on the palace heart e1 (rank 1: line 8 of the table, file e) and a
    // Black one on h7 (seen from Black: h2, mirrored to b2: line 7, file b).
    let fen = "4k4/9/7n1/9/9/9/9/9/4N4/3K5 w";
    assert_eq!(term(fen, PST_HORSE), [(7 * 5 + 1, -1), (8 * 5 + 4, 1)]);
    // The defenders' few squares: Red's general on d1 (line 1 of its table, file d), an
    // advisor on the palace heart e1, an elephant on e2; Black's at home (e9, d9 and
    // c9, the squares of e0, d0 and c0 seen from Black's side).
    let fen = "2bak4/9/9/9/9/9/9/4B4/3KA4/9 w";
    assert_eq!(term(fen, PST_GENERAL), [(2, 1), (5, -1)]);
    assert_eq!(term(fen, PST_ADVISOR), [(1, 1), (2, -1)]);
    assert_eq!(term(fen, PST_ELEPHANT), [(2, 1), (3, -1)]);
    // Soldiers: at home, crossed, on the back rank.
    assert_eq!(term("3k5/9/9/9/9/9/2P6/9/9/4K4 w", SOLDIER_HOME), [(4, 1)]);
    assert_eq!(
        term("3k5/9/9/5P3/9/9/9/9/9/4K4 w", SOLDIER_CROSSED),
        [(2 * 5 + 3, 1)]
    );
    assert_eq!(term("P2k5/9/9/9/9/9/9/9/9/4K4 w", SOLDIER_BOTTOM), [(0, 1)]);
}

#[test]
fn a_soldier_on_the_back_rank_is_worth_little() {
    let bottom = value("P2k5/9/9/9/9/9/9/9/9/4K4 w", "soldier_bottom");
    let crossed = value("3k5/P8/9/9/9/9/9/9/9/4K4 w", "soldier_crossed");
    assert!(bottom < crossed, "{bottom} vs {crossed}");
}

#[test]
fn defenders_depend_on_the_enemy_attack() {
    // Red's chariot is across the river and Red is a chariot up: level 2 + 2 = 4.
    // Black's two advisors and two elephants count at that level; Red's at Black's 0.
    let fen = "2bakab2/9/9/R3p4/9/9/9/9/9/2BAKAB2 w";
    let p = pos(fen);
    assert_eq!(xq_eval::terms::attack_levels(&p), [4, 0]);
    assert_eq!(term(fen, ADVISOR_DEFENCE), [(0, 2), (4, -2)]);
    assert_eq!(term(fen, ELEPHANT_DEFENCE), [(0, 2), (4, -2)]);
    // Worth more against attackers (middlegame and endgame values together): Black's
    // defenders here gain on Red's.
    let whole = |p: usize| PARAMS[p].mg() + PARAMS[p].eg();
    assert!(whole(ADVISOR_DEFENCE.start + 4) > whole(ADVISOR_DEFENCE.start));
    assert!(value(fen, "advisor_defence") < 0);
    // The control: no attackers either side, the counts cancel.
    assert_eq!(
        term("2bakab2/9/9/4p4/9/9/9/9/9/2BAKAB2 w", ADVISOR_DEFENCE),
        []
    );
}

#[test]
fn a_general_off_its_home_square() {
    // Red's general on d0, Black's at home; a Black horse across the river and a horse
    // up: level 2 + 1.
    let fen = "4k4/9/9/9/9/4n4/9/9/9/3K5 w";
    assert_eq!(term(fen, GENERAL_EXPOSED), [(3, 1)]);
    assert!(middlegame(fen, "general_exposed") < 0);
    assert_eq!(
        term("3k5/9/9/9/9/4n4/9/9/9/4K4 w", GENERAL_EXPOSED),
        [(0, -1)]
    );
}

#[test]
fn crossed_soldiers_by_attack_level_and_connected() {
    // Red soldiers on c6 and d6 (crossed, side by side) and a9 (back rank): level 2.
    let fen = "P3k4/9/9/2PP5/9/9/9/9/9/3K5 w";
    assert_eq!(term(fen, SOLDIER_ATTACK), [(2, 2)]);
    assert_eq!(term(fen, SOLDIER_CONNECTED), [(0, 1)]);
    assert!(middlegame(fen, "soldier_connected") > 0);
    // Apart, or on the back rank: not connected.
    assert_eq!(
        term("P3k4/9/9/2P1P4/9/9/9/9/9/3K5 w", SOLDIER_CONNECTED),
        []
    );
    assert_eq!(term("PP2k4/9/9/9/9/9/9/9/9/3K5 w", SOLDIER_CONNECTED), []);
    // A Black pair across the river counts for Black.
    assert_eq!(
        term("4k4/9/9/9/9/9/2pp5/9/9/3K5 w", SOLDIER_CONNECTED),
        [(0, -1)]
    );
}

#[test]
fn hollow_cannon() {
    // Red's cannon on e7 faces Black's general on an empty file; Black's general and both
    // advisors are at home.
    let fen = "3akab2/9/4C4/9/9/9/9/9/9/3AKA3 w";
    assert_eq!(term(fen, HOLLOW_CANNON), [(0, 1)]);
    assert!(middlegame(fen, "hollow_cannon") > 0);
    // One advisor has left: not the pattern.
    assert_eq!(term("3ak1b2/9/4Ca3/9/9/9/9/9/9/3AKA3 w", HOLLOW_CANNON), []);
    // The cannon off the general's file: nothing.
    assert_eq!(term("3akab2/9/3C5/9/9/9/9/9/4A4/3AK4 w", HOLLOW_CANNON), []);
}

#[test]
fn horse_on_the_palace_heart_under_a_central_cannon() {
    // Black's horse on e8 in front of its general e9; Red's cannon e1 aims at it over
    // the soldier on e6.
    let fen = "4k4/4n4/9/4p4/9/9/9/9/4C4/3K5 w";
    assert_eq!(term(fen, PALACE_HEART_HORSE), [(0, 1)]);
    assert!(value(fen, "palace_heart_horse") > 0);
    // The horse is also pinned against its general.
    assert_eq!(term(fen, PIN_GENERAL), [(0, 1)]);
    // The horse elsewhere: nothing.
    assert_eq!(
        term("4k4/9/3nb4/4p4/9/9/9/9/4C4/3K5 w", PALACE_HEART_HORSE),
        []
    );
}

#[test]
fn central_cannon_against_lopsided_advisors() {
    // Black's advisors on e8 (the heart) and d9: the door is f9. Red's central cannon
    // on e2 (screened by e6 and e8: no check).
    let fen = "3ak4/4a4/9/4p4/9/9/9/4C4/9/3K5 w";
    assert_eq!(term(fen, LOPSIDED_ADVISORS), [(0, 1)]);
    assert_eq!(term(fen, LOPSIDED_DOOR), []);
    assert_eq!(term(fen, LOPSIDED_STUCK_CHARIOT), []);
    // A Red chariot on f5 attacks the door square.
    let door = "3ak4/4a4/9/4p4/5R3/9/9/4C4/9/3K5 w";
    assert_eq!(term(door, LOPSIDED_ADVISORS), [(0, 1)]);
    assert_eq!(term(door, LOPSIDED_DOOR), [(0, 1)]);
    // Black's own chariot stuck on the door square.
    let stuck = "3akr3/4a4/9/4p4/9/9/9/4C4/9/3K5 w";
    assert_eq!(term(stuck, LOPSIDED_STUCK_CHARIOT), [(0, 1)]);
    // Advisors both at home: not lopsided; no central cannon: nothing.
    assert_eq!(
        term("3akab2/9/4c4/4p4/9/9/9/4C4/9/3K5 w", LOPSIDED_ADVISORS),
        []
    );
    assert_eq!(
        term("3ak4/4a4/9/4p4/9/9/9/3C5/9/3K5 w", LOPSIDED_ADVISORS),
        []
    );
}

#[test]
fn bottom_cannon() {
    // Red's cannon on a9, nothing between it and Black's general on e9.
    let fen = "C3k4/9/9/9/9/9/9/9/9/3K5 w";
    assert_eq!(term(fen, BOTTOM_CANNON), [(0, 1)]);
    assert!(middlegame(fen, "bottom_cannon") > 0);
    // A piece between: not the pattern.
    assert_eq!(term("C1bak4/9/9/9/9/9/9/9/9/3K5 w", BOTTOM_CANNON), []);
}

#[test]
fn missing_advisors_against_two_chariots() {
    // Red has both chariots, Black one advisor.
    let fen = "3k5/4a4/9/9/9/9/9/9/R7R/4K4 w";
    assert_eq!(term(fen, MISSING_ADVISORS), [(0, 1)]);
    assert!(value(fen, "missing_advisors") > 0);
    // One chariot: nothing.
    assert_eq!(term("3k5/4a4/9/9/9/9/9/9/R8/4K4 w", MISSING_ADVISORS), []);
}

#[test]
fn chariot_mobility_counts_empty_squares() {
    // Red's chariot on a0: a1 to a9 (9) and b0 to e0 (4) are empty, then its general on
    // f0; Black's on i9: i8 to i1 (8) down to Red's cannon on i0, and h9 to f9 (3) up to
    // its general on e9.
    let fen = "4k3r/9/9/9/9/9/9/9/9/R4K2C w";
    assert_eq!(term(fen, CHARIOT_MOBILITY), [(11, -1), (13, 1)]);
}

#[test]
fn horse_mobility_and_trapped_horses() {
    // A Red horse on e4 with all eight squares free and safe.
    assert_eq!(
        term("3k5/9/9/9/9/4N4/9/9/9/4K4 w", HORSE_MOBILITY),
        [(7, 1)]
    );
    // A Black soldier on c4 (across the river) covers c3: seven safe squares.
    assert_eq!(
        term("3k5/9/9/9/9/2p1N4/9/9/9/4K4 w", HORSE_MOBILITY),
        [(6, 1)]
    );
    // A Red horse on a0 with both legs blocked (a1, b0): trapped.
    let trapped = "3k5/9/9/9/9/9/9/9/R8/NC2K4 w";
    assert_eq!(term(trapped, TRAPPED_HORSE), [(0, 1)]);
    assert_eq!(term(trapped, HORSE_MOBILITY), []);
    assert!(value(trapped, "trapped_horse") < 0);
}

#[test]
fn cannon_platform() {
    // Red's cannon on e2 attacks Black's horse on e7 over its own soldier on e3.
    let fen = "3k5/9/4n4/9/9/9/4P4/4C4/9/4K4 w";
    assert_eq!(term(fen, CANNON_PLATFORM), [(0, 1)]);
    // No screen: no platform.
    assert_eq!(term("3k5/9/4n4/9/9/9/9/4C4/9/4K4 w", CANNON_PLATFORM), []);
}

#[test]
fn pins_against_the_general_and_a_chariot() {
    // A Red chariot on e2 pins Black's horse on e5 against the general on e9.
    let chariot = "4k4/9/9/9/4n4/9/9/4R4/9/3K5 w";
    assert_eq!(term(chariot, PIN_GENERAL), [(0, 1)]);
    // A Red cannon on e2 with two pieces between it and the general (horse e5, soldier
    // e6): the horse may not move.
    let cannon = "4k4/9/9/4p4/4n4/9/9/4C4/9/3K5 w";
    assert_eq!(term(cannon, PIN_GENERAL), [(0, 1)]);
    // Black's cannon on c2 stands between Red's chariot on a2 and Black's unprotected
    // chariot on g2.
    let on_chariot = "4k4/9/9/9/9/9/9/R1c3r2/9/3K5 w";
    assert_eq!(term(on_chariot, PIN_CHARIOT), [(0, 1)]);
    // Protected by a horse on h4 (over its empty leg h3): no pin.
    assert_eq!(term("4k4/9/9/9/9/7n1/9/R1c3r2/9/3K5 w", PIN_CHARIOT), []);
}

#[test]
fn hanging_and_threatened_pieces() {
    // Black's horse on e7 is attacked by Red's cannon (over the soldier e3) and nothing
    // protects it.
    let fen = "3k5/9/4n4/9/9/9/4P4/4C4/9/4K4 w";
    assert_eq!(term(fen, HANGING), [(2, 1)]);
    assert!(value(fen, "hanging") > 0);
    // Black's chariot on d7 is attacked by Red's soldier d6 (a lower piece), though its
    // advisor protects it; the chariot attacks the unprotected soldier in turn.
    let fen = "4k4/4a4/3r5/3P5/9/9/9/9/9/3K5 w";
    assert_eq!(term(fen, THREAT_BY_LOWER), [(0, 1)]);
    assert_eq!(term(fen, HANGING), [(5, -1)]);
    // The control: the soldier one file over attacks nothing.
    assert_eq!(term("4k4/4a4/3r5/2P6/9/9/9/9/9/3K5 w", THREAT_BY_LOWER), []);
}

#[test]
fn endgame_scale() {
    let sc = |fen: &str, score: i32| scale(&pos(fen), score);
    // Red has advisors and elephants only: no mating force.
    assert_eq!(sc("4k4/9/9/9/9/9/9/4B4/4A4/3AK4 w", 200), 0);
    // A soldier on the back rank does not mate either; one higher up does.
    assert_eq!(sc("P3k4/9/9/9/9/9/9/9/9/3K5 w", 200), 0);
    assert_eq!(sc("4k4/P8/9/9/9/9/9/9/9/3K5 w", 200), SCALE_MAX);
    // A lone cannon without an advisor to screen it.
    assert_eq!(sc("4k4/9/9/9/9/9/9/9/4C4/3K5 w", 200), 0);
    // A lone chariot against full advisors and elephants: drawish.
    assert_eq!(sc("2bakab2/9/9/9/9/9/9/9/R8/3K5 w", 200), SCALE_MAX / 4);
    // A lone horse against three defenders.
    assert_eq!(sc("2bak4/4a4/9/9/9/9/9/9/4N4/3K5 w", 200), SCALE_MAX / 8);
    // A horse and a soldier against all four.
    assert_eq!(
        sc("2bakab2/9/9/9/9/P8/9/9/4N4/3K5 w", 200),
        SCALE_MAX * 3 / 8
    );
    // Two attackers: the score stands.
    assert_eq!(sc("2bakab2/9/9/9/9/9/9/9/N7R/3K5 w", 200), SCALE_MAX);
    // The side behind keeps its score: Black is better here and has a chariot.
    assert_eq!(sc("4k4/9/9/9/9/9/9/4r4/4A4/3AK4 w", -300), SCALE_MAX);
    // The 60-move rule fades the score from 60 plies without a capture to 120.
    let fade = |plies: u32| {
        let mut p = pos("4k4/9/9/9/9/9/9/9/4R4/3K5 b");
        p.set_halfmove_clock(plies);
        scale(&p, 500)
    };
    assert_eq!(
        [fade(0), fade(60), fade(90), fade(120), fade(150)],
        [64, 64, 32, 0, 0]
    );
    // The scale shows in the breakdown and applies to the total.
    let b = breakdown(&pos("4k4/9/9/9/9/9/9/4B4/4A4/3AK4 w"));
    assert_eq!((b.scale, b.total), (0, 0));
}
