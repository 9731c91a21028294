//! HIP-0025 custom readiness: `helm.sh/readiness-success` and
//! `helm.sh/readiness-failure`, each a JSON array of `{path} op value`.
//!
//! Semantics of the reference implementation: used only when both are
//! present; any failure expression that holds means Failed (failure wins);
//! otherwise any success expression that holds means Ready; otherwise
//! Pending. An object without `.status` is Pending.

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn ordering(self) -> bool {
        matches!(self, Op::Lt | Op::Le | Op::Gt | Op::Ge)
    }
}

/// One step of the JSONPath subset we evaluate.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Field(String),
    Index(usize),
    /// `[?(@.field=="value")]`: the first element whose field equals value.
    Filter(Vec<String>, String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub(crate) text: String,
    path: Vec<Step>,
    op: Op,
    value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadinessStatus {
    Ready,
    Failed,
    Pending,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Readiness {
    pub(crate) success: Vec<Expr>,
    pub(crate) failure: Vec<Expr>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExprError {
    #[error("{0:?} does not start with a {{path}}")]
    NoPath(String),
    #[error("{0:?}: the path must be .status.x, .x or [..]")]
    BadPath(String),
    #[error("{0:?} has no operator (==, !=, <, <=, >, >=)")]
    NoOp(String),
    #[error("{0:?} compares a non-number with an ordering operator; it can never hold")]
    OrderingOnText(String),
    /// `{.x} === 1`: the value left after `==` starts with another operator.
    #[error("{0:?}: {1:?} is no operator, so the value compared is {2:?}; it can never hold")]
    UnknownOperator(String, String, String),
    /// `{.phase} == Ready == True`: one path, one operator, one value.
    #[error("{0:?} has more than one operator; the value compared is {1:?}, which the field never equals")]
    TwoOperators(String, String),
    /// NaN equals nothing and orders with nothing (Go's ParseFloat reads it too).
    #[error("{0:?} compares with NaN, which no number equals or orders with: {1}")]
    NaN(String, &'static str),
    /// `[?(@.a=="x" && @.b=="y")]`: the evaluator reads one condition.
    #[error("{0:?}: a filter takes one condition, @.field==value; {1} is not supported")]
    FilterLogic(String, &'static str),
    /// `{.x]}`: a bracket that closes nothing, read as part of a field name.
    #[error("{0:?}: the path has an unbalanced {1:?}")]
    Unbalanced(String, char),
}

impl ExprError {
    /// How to fix it.
    pub(crate) fn help(&self) -> &'static str {
        match self {
            ExprError::OrderingOnText(_) => "compare numbers with <, <=, >, >=; text only with == or !=",
            ExprError::UnknownOperator(..) => "use one of ==, !=, <, <=, >, >=",
            ExprError::TwoOperators(..) => {
                "write one comparison per expression; list several in the JSON array, any of which may hold"
            }
            ExprError::NaN(..) => "compare with a number",
            ExprError::FilterLogic(..) => {
                "filter on one field, e.g. \"{.conditions[?(@.type==\\\"Ready\\\")].status} == True\""
            }
            _ => "write \"{.succeeded} >= 1\" or \"{.conditions[?(@.type==\\\"Ready\\\")].status} == True\"",
        }
    }
}

impl Readiness {
    /// Evaluates against a live object (the whole object, with `.status`).
    pub fn evaluate(&self, object: &Value) -> ReadinessStatus {
        if object.get("status").is_none_or(Value::is_null) {
            return ReadinessStatus::Pending;
        }
        if self.failure.iter().any(|e| e.holds(object)) {
            ReadinessStatus::Failed
        } else if self.success.iter().any(|e| e.holds(object)) {
            ReadinessStatus::Ready
        } else {
            ReadinessStatus::Pending
        }
    }
}

impl Readiness {
    /// What a pending resource waits for, in the chart author's words with
    /// the values the object has now: a rule that can never hold (a field
    /// the controller never writes) is then visible long before the timeout.
    pub(super) fn waiting_for(&self, object: &Value) -> String {
        if object.get("status").is_none_or(Value::is_null) {
            return "the object has no .status yet (helm.sh/readiness-success reads .status)".into();
        }
        let now: Vec<String> = self
            .success
            .iter()
            .map(|e| match resolve(object, &e.path) {
                Some(v @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
                    format!("{} (now {})", e.text.trim(), v.to_string().trim_matches('"'))
                }
                Some(_) => format!("{} (now not a scalar)", e.text.trim()),
                None => format!("{} (the field is absent)", e.text.trim()),
            })
            .collect();
        format!("waiting for helm.sh/readiness-success: {}", now.join(" or "))
    }
}

impl Expr {
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let t = text.trim();
        let inner_end = t.find('}').filter(|_| t.starts_with('{')).ok_or_else(|| ExprError::NoPath(text.into()))?;
        let raw_path = t[1..inner_end].trim();
        let rest = t[inner_end + 1..].trim_start();
        let (op, value) =
            [("==", Op::Eq), ("!=", Op::Ne), ("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt)]
                .into_iter()
                .find_map(|(s, op)| rest.strip_prefix(s).map(|v| (op, v)))
                .ok_or_else(|| ExprError::NoOp(text.into()))?;
        let value = unquote(value.trim()).to_string();
        let normalized = if raw_path.starts_with(".status.") || raw_path == ".status" {
            raw_path.to_string()
        } else if raw_path.starts_with('.') || raw_path.starts_with('[') {
            format!(".status{raw_path}")
        } else {
            return Err(ExprError::BadPath(text.into()));
        };
        check_path(text, &normalized)?;
        let path = parse_path(&normalized).ok_or_else(|| ExprError::BadPath(text.into()))?;
        check_value(text, op, &value)?;
        if op.ordering() && value.parse::<f64>().is_err() {
            return Err(ExprError::OrderingOnText(text.into()));
        }
        Ok(Expr { text: text.to_string(), path, op, value })
    }

    pub fn holds(&self, object: &Value) -> bool {
        let Some(found) = resolve(object, &self.path) else {
            return false;
        };
        let actual = match found {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return false,
        };
        if let (Ok(x), Ok(y)) = (actual.parse::<f64>(), self.value.parse::<f64>()) {
            return match self.op {
                Op::Eq => x == y,
                Op::Ne => x != y,
                Op::Lt => x < y,
                Op::Le => x <= y,
                Op::Gt => x > y,
                Op::Ge => x >= y,
            };
        }
        match self.op {
            Op::Eq => actual == self.value,
            Op::Ne => actual != self.value,
            _ => false,
        }
    }
}

const OPERATORS: [&str; 6] = ["==", "!=", "<=", ">=", "<", ">"];

/// What [`parse_path`] would read without complaint but never resolves:
/// brackets that do not pair up, a filter of several conditions.
fn check_path(text: &str, path: &str) -> Result<(), ExprError> {
    let mut open = 0usize;
    let mut quote = None;
    for c in path.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => open += 1,
            (None, ']') if open == 0 => return Err(ExprError::Unbalanced(text.into(), ']')),
            (None, ']') => open -= 1,
            _ => {}
        }
    }
    if open > 0 {
        return Err(ExprError::Unbalanced(text.into(), '['));
    }
    for logic in ["&&", "||"] {
        if path.contains("[?(") && path.contains(logic) {
            return Err(ExprError::FilterLogic(text.into(), logic));
        }
    }
    Ok(())
}

/// A value that makes the comparison impossible however the object looks.
fn check_value(text: &str, op: Op, value: &str) -> Result<(), ExprError> {
    if value.starts_with(['=', '<', '>', '!']) {
        // The operator as written: what follows the path, up to a blank.
        let after_path = text.trim().split_once('}').map_or("", |(_, rest)| rest);
        let written = after_path.split_whitespace().next().unwrap_or_default().to_string();
        return Err(ExprError::UnknownOperator(text.into(), written, value.to_string()));
    }
    if OPERATORS.iter().any(|o| value.split_whitespace().any(|w| w == *o)) {
        return Err(ExprError::TwoOperators(text.into(), value.to_string()));
    }
    if value.eq_ignore_ascii_case("nan") || value.parse::<f64>().is_ok_and(f64::is_nan) {
        let why = if op == Op::Ne { "it always holds" } else { "it can never hold" };
        return Err(ExprError::NaN(text.into(), why));
    }
    Ok(())
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return &v[1..v.len() - 1];
        }
    }
    v
}

fn parse_path(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Field(r[..end].to_string()));
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix("[?(@") {
            let close = r.find(")]")?;
            let cond = &r[..close];
            let (lhs, rhs) = cond.split_once("==")?;
            let fields: Vec<String> = lhs.trim().strip_prefix('.')?.split('.').map(str::to_string).collect();
            if fields.iter().any(String::is_empty) {
                return None;
            }
            steps.push(Step::Filter(fields, unquote(rhs.trim()).to_string()));
            rest = &r[close + 2..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            let inner = r[..close].trim();
            if let Ok(i) = inner.parse() {
                steps.push(Step::Index(i));
            } else {
                let key = unquote(inner);
                if key.len() == inner.len() || key.is_empty() {
                    return None;
                }
                steps.push(Step::Field(key.to_string()));
            }
            rest = &r[close + 1..];
        } else {
            return None;
        }
    }
    Some(steps)
}

fn resolve<'v>(mut v: &'v Value, path: &[Step]) -> Option<&'v Value> {
    for step in path {
        v = match step {
            Step::Field(f) => v.get(f)?,
            Step::Index(i) => v.get(i)?,
            Step::Filter(fields, want) => v.as_array()?.iter().find(|item| {
                let mut x = *item;
                for f in fields {
                    match x.get(f) {
                        Some(n) => x = n,
                        None => return false,
                    }
                }
                match x {
                    Value::String(s) => s == want,
                    other => serde_json::from_slice::<Value>(want.as_bytes()).is_ok_and(|w| w == *other),
                }
            })?,
        };
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn readiness(success: &[&str], failure: &[&str]) -> Readiness {
        let p = |v: &[&str]| v.iter().map(|s| Expr::parse(s).unwrap()).collect();
        Readiness { success: p(success), failure: p(failure) }
    }

    #[test]
    fn failure_wins_over_success() {
        let r = readiness(&["{.succeeded} == 1"], &["{.failed} == 1"]);
        assert_eq!(r.evaluate(&json!({"status": {"succeeded": 1, "failed": 1}})), ReadinessStatus::Failed);
    }

    #[test]
    fn success_expressions_are_ored() {
        let r = readiness(&["{.a} == 1", "{.b} == 1"], &["{.failed} >= 1"]);
        assert_eq!(r.evaluate(&json!({"status": {"b": 1}})), ReadinessStatus::Ready);
        assert_eq!(r.evaluate(&json!({"status": {"c": 1}})), ReadinessStatus::Pending);
    }

    #[test]
    fn missing_status_is_pending() {
        let r = readiness(&["{.a} == 1"], &["{.b} == 1"]);
        assert_eq!(r.evaluate(&json!({"metadata": {}})), ReadinessStatus::Pending);
    }

    #[test]
    fn ordering_on_text_is_rejected() {
        assert!(matches!(Expr::parse(r#"{.status.phase} > "Running""#), Err(ExprError::OrderingOnText(_))));
    }

    /// Expressions the evaluator reads but that can never hold, or that it
    /// would read as something else than written (issue 33).
    #[test]
    fn expressions_that_can_never_hold_are_refused() {
        type Is = fn(&ExprError) -> bool;
        let cases: [(&str, Is); 7] = [
            ("{.x} === 1", |e| matches!(e, ExprError::UnknownOperator(_, op, _) if op == "===")),
            ("{.x} <== 1", |e| matches!(e, ExprError::UnknownOperator(_, op, _) if op == "<==")),
            ("{.x} > NaN", |e| matches!(e, ExprError::NaN(_, "it can never hold"))),
            ("{.x} != nan", |e| matches!(e, ExprError::NaN(_, "it always holds"))),
            ("{.phase} == Ready == True", |e| matches!(e, ExprError::TwoOperators(_, v) if v == "Ready == True")),
            (r#"{.conditions[?(@.type=="Ready" && @.status=="True")].type} == Ready"#, |e| {
                matches!(e, ExprError::FilterLogic(_, "&&"))
            }),
            ("{.x]} == 1", |e| matches!(e, ExprError::Unbalanced(_, ']'))),
        ];
        for (text, want) in cases {
            let e = Expr::parse(text).unwrap_err();
            assert!(want(&e), "{text}: {e:?}");
            assert!(e.to_string().contains(text) || e.to_string().contains(&format!("{text:?}")), "{e}");
        }
        assert!(Expr::parse("{.x[0} == 1").is_err());
        // Brackets inside quotes are text.
        assert!(Expr::parse("{.conditions[?(@.type==\"a]\")].status} == True").is_ok());
    }

    #[test]
    fn paths_map_to_status() {
        let obj = json!({"status": {"phase": "Bound", "conditions": [{"type": "Ready", "status": "True"}], "n": [3]}});
        for e in [
            "{.status.phase} == Bound",
            "{.phase} == 'Bound'",
            "{.conditions[?(@.type==\"Ready\")].status} == True",
            "{['n'][0]} >= 3",
            "{.conditions[0].type} != Other",
        ] {
            assert!(Expr::parse(e).unwrap().holds(&obj), "{e}");
        }
        assert!(Expr::parse("{metadata.name} == x").is_err());
        assert!(Expr::parse("{.a} ~ 1").is_err());
    }

    #[test]
    fn waiting_for_names_each_rule_and_what_the_object_has() {
        let r = Readiness {
            success: vec![Expr::parse("{.phase} == Ready").unwrap(), Expr::parse("{.ready} >= 1").unwrap()],
            failure: vec![Expr::parse("{.phase} == Failed").unwrap()],
        };
        assert_eq!(
            r.waiting_for(&serde_json::json!({"status": {"phase": "Provisioning"}})),
            "waiting for helm.sh/readiness-success: {.phase} == Ready (now Provisioning) or {.ready} >= 1 (the field is absent)"
        );
        assert!(r.waiting_for(&serde_json::json!({"spec": {}})).contains("no .status yet"));
    }
}
