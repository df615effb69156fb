//! The UCI conformance table (`xq-protocol/tests/conformance.txt`): protocol exchanges
//! that every host of the engine must answer alike, read into [`Case`]s, and the check
//! of what an engine wrote against a case's patterns ([`Case::check`]). The web tests
//! read the same file with a JavaScript copy of these rules.

/// The table's text.
pub const TABLE: &str = include_str!("../../xq-protocol/tests/conformance.txt");

/// What a runner does, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Send this line to the engine.
    Send(String),
    /// Wait until the engine writes a line starting with this (after the lines the
    /// last wait took).
    Await(String),
}

/// One expected line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A line matching this pattern (`*` matches any text).
    Line(String),
    /// Any number of lines.
    Any,
}

/// One exchange: its name, what to send and wait for, and what must come back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// What the case shows.
    pub name: String,
    /// The lines to send and the replies to wait for.
    pub steps: Vec<Step>,
    /// The engine's lines, in order (the final `readyok` left out).
    pub expect: Vec<Expect>,
}

/// The cases of the table.
///
/// # Panics
/// If the table has a line of no known kind (the table is the crate's own).
pub fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in TABLE.lines().enumerate() {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("== ") {
            cases.push(Case {
                name: name.to_string(),
                steps: Vec::new(),
                expect: Vec::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .unwrap_or_else(|| panic!("conformance.txt line {}: outside a case", i + 1));
        if let Some(l) = line.strip_prefix("> ") {
            case.steps.push(Step::Send(l.to_string()));
        } else if let Some(l) = line.strip_prefix("! ") {
            case.steps.push(Step::Await(l.to_string()));
        } else if let Some(l) = line.strip_prefix("< ") {
            case.expect.push(Expect::Line(l.to_string()));
        } else if line == "..." {
            case.expect.push(Expect::Any);
        } else {
            panic!("conformance.txt line {}: {line:?}", i + 1);
        }
    }
    cases
}

/// Does `text` match `pattern`, where `*` matches any text (none included)?
///
/// ```
/// use xq_testkit::conformance::glob;
/// assert!(glob("bestmove *", "bestmove h2e2 ponder h9g7"));
/// assert!(glob("info depth * score mate 1 *", "info depth 2 score mate 1 pv e1e9"));
/// assert!(!glob("bestmove h2e2*", "bestmove b2e2"));
/// ```
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, rest) = parts.split_first().expect("split gives one part at least");
    let Some(mut left) = text.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return left.is_empty();
    };
    for part in middle {
        match left.find(part) {
            Some(at) => left = &left[at + part.len()..],
            None => return false,
        }
    }
    left.len() >= last.len() && left.ends_with(last)
}

impl Case {
    /// Checks `lines` (what the engine wrote, the final `readyok` left out) against the
    /// case's patterns; the error says where they part.
    ///
    /// # Errors
    /// The first pattern the lines do not meet, with the lines.
    pub fn check(&self, lines: &[String]) -> Result<(), String> {
        if matches(&self.expect, lines) {
            Ok(())
        } else {
            Err(format!(
                "case '{}': the engine wrote\n  {}\nwhich does not match\n  {}",
                self.name,
                lines.join("\n  "),
                self.expect
                    .iter()
                    .map(|e| match e {
                        Expect::Line(p) => p.as_str(),
                        Expect::Any => "...",
                    })
                    .collect::<Vec<_>>()
                    .join("\n  ")
            ))
        }
    }
}

/// Do `lines` match `expect` (with `...` taking any number of lines)?
fn matches(expect: &[Expect], lines: &[String]) -> bool {
    match expect.split_first() {
        None => lines.is_empty(),
        Some((Expect::Any, rest)) => (0..=lines.len()).any(|k| matches(rest, &lines[k..])),
        Some((Expect::Line(p), rest)) => match lines.split_first() {
            Some((l, more)) => glob(p, l) && matches(rest, more),
            None => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_every_case_ends_its_searches() {
        let cases = cases();
        assert!(cases.len() >= 25, "{}", cases.len());
        for case in &cases {
            assert!(!case.steps.is_empty(), "{}", case.name);
            // A `go` that does not wait for its answer is followed by what ends it.
            let gos = case
                .steps
                .iter()
                .filter(|s| matches!(s, Step::Send(l) if l.starts_with("go")))
                .count();
            let waits = case
                .steps
                .iter()
                .filter(|s| matches!(s, Step::Await(p) if p == "bestmove"))
                .count();
            assert_eq!(gos, waits, "{}", case.name);
        }
    }

    #[test]
    fn dots_take_any_number_of_lines_and_patterns_one_each() {
        let lines: Vec<String> = ["a 1", "b 2", "c 3"].map(String::from).to_vec();
        let case = |expect: Vec<Expect>| Case {
            name: "t".into(),
            steps: vec![],
            expect,
        };
        let l = |p: &str| Expect::Line(p.into());
        assert!(case(vec![l("a *"), Expect::Any, l("c *")])
            .check(&lines)
            .is_ok());
        assert!(case(vec![Expect::Any, l("b 2"), l("c 3")])
            .check(&lines)
            .is_ok());
        assert!(case(vec![l("a *"), l("c *")]).check(&lines).is_err());
        assert!(case(vec![l("a *"), Expect::Any]).check(&lines).is_ok());
        assert!(case(vec![l("a 1"), l("b 2")]).check(&lines).is_err());
        assert!(!glob("a*b*c", "abx"));
        assert!(glob("a*b*c", "a-b-b-c"));
        assert!(!glob("x", "xy"));
    }
}
