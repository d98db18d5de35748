//! Small readers of operation inputs (already validated against operations.schema.json).

use serde_json::{Map, Value};

pub fn str_of(input: &Value, key: &str) -> String {
    input[key].as_str().unwrap_or("").to_owned()
}

/// A non-negative integer option, `None` when absent (the port's own default then applies).
pub fn u64_of(input: &Value, key: &str) -> Option<u64> {
    input[key].as_f64().map(|n| n.max(0.0) as u64)
}

pub fn obj_or_empty(v: &Value) -> Value {
    match v {
        Value::Object(_) => v.clone(),
        _ => Value::Object(Map::new()),
    }
}

/// The turns listed in an `onTurns` array; `None` when absent (every turn).
pub fn turns_of(v: &Value) -> Option<Vec<u64>> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect())
}

pub fn on_turn(turns: &Option<Vec<u64>>, turn: u64) -> bool {
    turns.as_ref().is_none_or(|t| t.contains(&turn))
}
