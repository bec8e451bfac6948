//! "Did you mean ...?": the known name nearest a mistyped one, by edit distance.

/// Levenshtein distance between `a` and `b` (insertions, deletions, substitutions of chars).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb)).min(up + 1).min(row[j] + 1);
            diag = up;
        }
    }
    row[b.len()]
}

/// The candidate nearest `word`, if it is near enough to be a typo: at most a third of the
/// longer name's characters changed (at least 2), ties to the first listed; a candidate that
/// starts with `word` (a name cut short) counts as near.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word_lc = word.to_ascii_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        let d = if !word_lc.is_empty() && c.starts_with(&word_lc) {
            0
        } else {
            edit_distance(&word_lc, c)
        };
        let limit = (word_lc.chars().count().max(c.chars().count()) / 3).max(2);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
        assert_eq!(edit_distance("mariadb", "maraidb"), 2);
    }

    #[test]
    fn typos_find_their_name_and_nonsense_finds_none() {
        let names = ["seed000-hot4485-b2b", "seed000-hot897-b2b", "small-demo"];
        assert_eq!(
            closest("seed000-hot4458-b2b", names),
            Some("seed000-hot4485-b2b")
        );
        assert_eq!(closest("smal-demo", names), Some("small-demo"));
        assert_eq!(closest("SMALL-DEMO", names), Some("small-demo"));
        assert_eq!(closest("small", names), Some("small-demo"));
        assert_eq!(closest("zzzzzzzz", names), None);
        assert_eq!(closest("", names), None);
    }
}
