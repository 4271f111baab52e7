//! The JSON output of every command validates against docs/schema.json (schema
//! `chainmate/1`), and each document names its schema version and command first.

mod common;
use common::{chainmate, root};

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root("docs/schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("docs/schema.json is a valid JSON Schema")
}

fn assert_valid(v: &jsonschema::Validator, doc: &str, what: &str) -> serde_json::Value {
    let value: serde_json::Value =
        serde_json::from_str(doc).unwrap_or_else(|e| panic!("{what}: not JSON: {e}\n{doc}"));
    let errors: Vec<String> = v
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:?}");
    // The version and the command come first.
    assert!(
        doc.trim_start()
            .starts_with("{\n  \"schema\": \"chainmate/1\"")
            || doc.starts_with("{\"schema\":\"chainmate/1\""),
        "{what}: {doc}"
    );
    value
}

#[test]
fn every_command_writes_schema_chainmate_1() {
    let v = validator();
    // solve: direct play with tries and twins, help play, a condition.
    for file in [
        "problems/orthodox/d2_0335.inp",
        "problems/orthodox/h2_0156.inp",
        "tests/data/problems/twins.inp",
        "tests/data/problems/yacpdb_entry.yaml",
        "problems/kazan/01_mate1.yaml",
        "tests/data/popeye_random/r801_90.inp",
    ] {
        let (code, out, err) = chainmate(&["solve", "-q", "--format", "json", &root(file)]);
        assert_eq!(code, 0, "{file}: {err}");
        let doc = assert_valid(&v, &out, file);
        assert_eq!(doc["command"], "solve");
        assert!(doc["problems"][0]["twins"][0]["fen"].is_string(), "{file}");
    }
    // A reflex try's refutation with the mate White must then give.
    let (_, out, _) = chainmate(&[
        "solve",
        "-q",
        "--format",
        "json",
        &root("tests/data/popeye_random/r801_90.inp"),
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let refutation = &doc["problems"][0]["twins"][0]["tree"][0]["refutations"][0];
    assert_eq!(refutation["text"], "Kd8-c7");
    assert_eq!(refutation["forced"][0]["text"], "Qg8-b8 #");
    // check: one document a line.
    let (_, out, _) = chainmate(&[
        "check",
        "-q",
        "--format",
        "json",
        &root("problems/orthodox"),
    ]);
    let mut lines = 0;
    for line in out.lines() {
        let doc = assert_valid(&v, line, "check line");
        assert_eq!(doc["command"], "check");
        lines += 1;
    }
    assert!(lines > 10);
    // claim: orthodox and Combo.
    for args in [
        vec![
            "claim",
            "--format",
            "json",
            "--fen",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ],
        vec![
            "claim",
            "--format",
            "json",
            "--condition",
            "combo",
            "--fen",
            "8/8/8/8/8/1qk5/8/K7 w - - 0 1",
        ],
    ] {
        let (_, out, _) = chainmate(&args);
        assert_valid(&v, &out, "claim");
    }
    // perft, with and without --divide.
    for args in [
        vec!["perft", "--format", "json", "--depth", "2"],
        vec![
            "perft",
            "--format",
            "json",
            "--depth",
            "2",
            "--divide",
            "--condition",
            "combo",
        ],
    ] {
        let (code, out, _) = chainmate(&args);
        assert_eq!(code, 0);
        let doc = assert_valid(&v, &out, "perft");
        assert!(doc["nodes"].as_u64().unwrap() > 0);
    }
    // show, with problem metadata.
    let (_, out, _) = chainmate(&[
        "show",
        "--format",
        "json",
        &root("tests/data/problems/yacpdb_entry.yaml"),
    ]);
    let doc = assert_valid(&v, &out, "show");
    assert_eq!(doc["problems"][0]["authors"][0], "Ugren, Ljubomir");
}

/// The schema is not a rubber stamp: a document with a wrong version or a missing field is
/// rejected.
#[test]
fn the_schema_rejects_what_is_not_chainmate_1() {
    let v = validator();
    let (_, out, _) = chainmate(&["perft", "--format", "json", "--depth", "1"]);
    let mut doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.is_valid(&doc));
    doc["schema"] = "chainmate/2".into();
    assert!(!v.is_valid(&doc));
    doc["schema"] = "chainmate/1".into();
    doc.as_object_mut().unwrap().remove("nodes");
    assert!(!v.is_valid(&doc));
}
