//! `xcover merge`: adds up the result records of the shards of one search, exactly, and
//! refuses what does not add up (another search, a missing, repeated or interrupted shard).

use std::io::Write;

use serde_json::Value;

use super::enumerate::ShardArg;

/// `xcover merge`: adds up the records of the parts of one search.
pub fn merge(files: &[String], out: &mut impl Write) -> Result<u128, String> {
    let mut fingerprint: Option<String> = None;
    let mut n: Option<usize> = None;
    let mut seen: Vec<Option<String>> = Vec::new();
    let mut total: u128 = 0;
    let mut nodes: u128 = 0;
    let mut records = 0usize;
    for file in files {
        let (name, text) = super::input::read_text(file)?;
        for (index, line) in text.lines().enumerate() {
            let at = format!("{name}:{}", index + 1);
            if line.trim().is_empty() {
                continue;
            }
            let record: Value =
                serde_json::from_str(line).map_err(|e| format!("{at}: not a JSON record: {e}"))?;
            let field = |key: &str| {
                record
                    .get(key)
                    .ok_or_else(|| format!("{at}: the record has no '{key}'"))
            };
            let theirs = field("fingerprint")?
                .as_str()
                .ok_or_else(|| format!("{at}: 'fingerprint' is not a string"))?
                .to_string();
            match &fingerprint {
                None => fingerprint = Some(theirs),
                Some(ours) if *ours != theirs => {
                    return Err(format!(
                        "{at}: a record of another search (fingerprint {theirs}, the first \
                         record's is {ours})"
                    ));
                }
                Some(_) => {}
            }
            let shard: ShardArg = field("shard")?
                .as_str()
                .ok_or_else(|| format!("{at}: 'shard' is not a string"))?
                .parse()
                .map_err(|e| format!("{at}: {e}"))?;
            let k = shard
                .k
                .ok_or_else(|| format!("{at}: the shard has no number"))?;
            match n {
                None => {
                    n = Some(shard.n);
                    seen = vec![None; shard.n];
                }
                Some(ours) if ours != shard.n => {
                    return Err(format!(
                        "{at}: shard {k}/{} of a split into {} parts, the first record's is into \
                         {ours}",
                        shard.n, shard.n
                    ));
                }
                Some(_) => {}
            }
            if record.get("partial").and_then(Value::as_bool) == Some(true) {
                return Err(format!(
                    "{at}: shard {k}/{} was interrupted: its count is partial",
                    shard.n
                ));
            }
            if let Some(first) = &seen[k - 1] {
                return Err(format!(
                    "{at}: shard {k}/{} again (first at {first})",
                    shard.n
                ));
            }
            seen[k - 1] = Some(at.clone());
            let count = match field("count")? {
                Value::Number(number) => number.as_u64().map(u128::from),
                Value::String(digits) => digits.parse().ok(),
                _ => None,
            }
            .ok_or_else(|| format!("{at}: 'count' is not a whole number"))?;
            total = total
                .checked_add(count)
                .ok_or_else(|| format!("{at}: the total passes 2^128"))?;
            nodes += u128::from(record.get("nodes").and_then(Value::as_u64).unwrap_or(0));
            records += 1;
        }
    }
    let Some(n) = n else {
        return Err("no records to merge".to_string());
    };
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, at)| at.is_none())
        .map(|(k, _)| (k + 1).to_string())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(20).map(String::as_str).collect();
        return Err(format!(
            "{} of {n} shards missing: {}{}",
            missing.len(),
            shown.join(", "),
            if missing.len() > 20 { ", ..." } else { "" }
        ));
    }
    writeln!(out, "{total}").map_err(|e| e.to_string())?;
    eprintln!(
        "merged {records} shards of {n} (fingerprint {}): {total} solutions, {nodes} nodes",
        fingerprint.unwrap_or_default()
    );
    Ok(total)
}
