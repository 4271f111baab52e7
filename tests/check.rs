//! `chainmate check`: verdicts with evidence, JSON lines, exit codes, duals.
mod common;
use common::{chainmate, root};

#[test]
fn every_verdict_with_its_evidence() {
    let (code, out, _) = chainmate(&["check", "-q", &root("problems/orthodox")]);
    assert_eq!(code, 1, "not all sound");
    let block = |name: &str| -> String {
        let start = out.find(name).unwrap_or_else(|| panic!("{name} in\n{out}"));
        out[start..].lines().take(5).collect::<Vec<_>>().join("\n")
    };
    let sound = block("armeni_tries.yaml");
    assert!(sound.contains("#2: sound"), "{sound}");
    let cooked = block("cooked_example.yaml");
    assert!(
        cooked.contains("#2: cooked") && cooked.contains("extra key (cook): 1.Se8-c7 # !"),
        "{cooked}"
    );
    assert!(cooked.contains("shorter solution"), "{cooked}");
    let unsound = block("unsound_example.yaml");
    assert!(unsound.contains("#2: no solution"), "{unsound}");
    assert!(
        unsound.contains("stated key 1.Bh4*g5 fails: but 1...Rf8-e8 !"),
        "{unsound}"
    );
    let unstated = block("unstated_example.yaml");
    assert!(
        unstated.contains("#2: unstated") && unstated.contains("found key: 1.f2-f4 !"),
        "{unstated}"
    );
    assert!(out.contains("summary:") && out.contains("slowest:"));
}

#[test]
fn sound_problems_exit_0_and_conditions_are_checked() {
    let (code, out, _) = chainmate(&[
        "check",
        "-q",
        &root("problems/teleport"),
        &root("problems/kazan"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(": sound").count(), 13, "{out}");
}

#[test]
fn json_lines() {
    let (_, out, _) = chainmate(&[
        "check",
        "-q",
        "--format",
        "json",
        &root("problems/orthodox"),
    ]);
    let mut verdicts = vec![];
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        verdicts.push(v["twins"][0]["verdict"].as_str().unwrap().to_string());
    }
    for v in ["sound", "cooked", "no_solution", "unstated"] {
        assert!(verdicts.iter().any(|x| x == v), "{v} in {verdicts:?}");
    }
}

#[test]
fn input_errors_exit_2_and_the_rest_is_checked() {
    let dir = std::env::temp_dir().join(format!("chainmate-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.yaml"),
        "stipulation: \"#2\"\nalgebraic: {white: [Kg1, Qz9], black: [Ke8]}\n",
    )
    .unwrap();
    std::fs::copy(
        root("problems/teleport/01_mate1.yaml"),
        dir.join("good.yaml"),
    )
    .unwrap();
    let (code, out, err) = chainmate(&["check", "-q", dir.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.yaml"), "{err}");
    assert!(
        out.contains("good.yaml") && out.contains("#1: sound"),
        "{out}"
    );
}

#[test]
fn duals_are_reported() {
    let (_, out, _) = chainmate(&[
        "check",
        "-q",
        "--duals",
        &root("problems/orthodox/armeni_tries.yaml"),
    ]);
    assert!(
        out.contains("dual: 1.f2-f4 1...Rf8-b8 +: c7*b8=Q #, c7*b8=B #"),
        "{out}"
    );
}

#[test]
fn short_variations_are_reported() {
    let (_, out, _) = chainmate(&[
        "check",
        "-q",
        "--short-variations",
        &root("problems/orthodox/d4_0166.inp"),
    ]);
    // 1...Sb5-d6 is answered by mate on White's third move: shorter than the full length.
    assert!(
        out.contains("short variation: 1.Ba8-h1 1...Sb5-d6"),
        "{out}"
    );
}

#[test]
fn olive_collections_are_checked_as_they_are() {
    let (code, out, err) = chainmate(&[
        "check",
        "-q",
        &root("tests/data/problems/olive_collection.olv"),
    ]);
    assert_ne!(code, 2, "{err}");
    assert!(out.contains("summary:"), "{out}");
}

/// Circe: a stated help line may leave out the rebirths (they follow from the moves), or
/// write them as chainmate (and Popeye) print them; a wrong line still fails. The Werner
/// #5 of problems/circe is sound with its key stated briefly (a tree's verdict judges the
/// key).
#[test]
fn circe_stated_solutions_may_leave_out_the_rebirth() {
    let dir = std::env::temp_dir().join(format!("chainmate-circe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let help = "stipulation: \"h#2\"\noptions: [Circe]\nalgebraic:\n  white: [Kc1, Qd1, Rh3, Sf3, Pe4]\n  black: [Ka8, Rd5, Pb7, Sc7, Bf5]\nsolution: |\n";
    let cases = [
        ("short.yaml", format!("{help}  1.Kb8 Qxd5 2.Kc8 Qd8#\n")),
        (
            "long.yaml",
            format!("{help}  1.Ka8-b8 Qd1*d5[+bRa8] 2.Kb8-c8 Qd5-d8 #\n"),
        ),
        (
            "tree.yaml",
            "stipulation: \"#5\"\noptions: [Circe]\nalgebraic:\n  white: [Ke1, Rh1, Bg3, Bg4]\n  black: [Kg2, Rb2]\nsolution: |\n  1.Rg1+! Kxg1 2.0-0-0+ Kg2 3.Rg1+ Kxg1 4.Kxb2+ Kg2 5.Rg1#\n".to_string(),
        ),
    ];
    for (name, text) in &cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let (code, out, err) = chainmate(&["check", "-q", f.to_str().unwrap()]);
        assert!(out.contains(": sound"), "{name}: {out}{err}");
        assert_eq!(code, 0, "{name}: {out}");
    }
    let f = dir.join("wrong.yaml");
    std::fs::write(&f, format!("{help}  1.Kb8 Qxd5 2.Kc8 Qd7#\n")).unwrap();
    let (_, out, _) = chainmate(&["check", "-q", f.to_str().unwrap()]);
    assert!(out.contains("stated line does not work"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A duplex is judged half by half, each on its part of the stated solution: stating one
/// half's solution leaves the other half's a cook.
#[test]
fn duplex_halves_are_judged_apart() {
    let (code, out, _) = chainmate(&["check", "-q", &root("tests/data/problems/duplex.yaml")]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let verdicts: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("h#2") || l.starts_with("duplex:"))
        .map(|l| l.split(" (").next().unwrap_or(l))
        .collect();
    assert_eq!(
        verdicts,
        [
            "h#2: sound",
            "duplex: h#2: sound",
            "duplex: h#2: sound",
            "h#2: sound",
            "duplex: h#2: cooked",
        ],
        "{out}"
    );
    assert!(
        out.contains("extra solution: Kf6-e5 Qh7-f5 + Ke5-d4 Bd2-c3 #"),
        "{out}"
    );
    let (_, json, _) = chainmate(&[
        "check",
        "-q",
        "--format",
        "json",
        &root("tests/data/problems/duplex.yaml"),
    ]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["twins"][0].get("exchanged"), None);
    assert_eq!(first["twins"][1]["exchanged"], true);
}
