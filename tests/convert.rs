//! `chainmate convert` round trips: every Popeye input file of tests/data goes to YAML and
//! back to Popeye input, and each problem keeps its meaning (position, castling and
//! en-passant rights, stipulation, condition, options, twins, and the texts around it).

use chainmate::problem::inp::problems_to_inp;
use chainmate::problem::yaml::problems_to_yaml;
use chainmate::problem::{Problem, SourceFormat, parse_text};

fn meaning(p: &Problem) -> String {
    format!(
        "{:?}|{}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        p.position.board,
        p.position.castling,
        p.position.ep,
        p.stipulation,
        p.condition,
        p.options.tries,
        p.option_words(),
        p.twins
            .iter()
            .map(|t| (t.label.clone(), t.continued, t.commands.clone()))
            .collect::<Vec<_>>(),
        p.title,
        p.authors,
        p.source,
        p.remark,
    )
}

#[test]
fn every_inp_round_trips_through_yaml() {
    let mut files = vec![];
    for dir in [
        "tests/data/popeye",
        "tests/data/popeye/bench",
        "tests/data/popeye_extra",
        "problems/orthodox",
    ] {
        for e in std::fs::read_dir(format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"))).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "inp") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 200);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        let original = parse_text(&name, &text, SourceFormat::Popeye).unwrap();
        let yaml = problems_to_yaml(&original);
        let from_yaml = parse_text("converted.yaml", &yaml, SourceFormat::Yaml)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{yaml}"));
        let inp = problems_to_inp(&from_yaml);
        let back = parse_text("converted.inp", &inp, SourceFormat::Popeye)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{inp}"));
        assert_eq!(original.len(), from_yaml.len(), "{name}");
        assert_eq!(original.len(), back.len(), "{name}");
        for ((a, b), c) in original.iter().zip(&from_yaml).zip(&back) {
            assert_eq!(meaning(a), meaning(b), "{name} via YAML:\n{yaml}");
            assert_eq!(meaning(a), meaning(c), "{name} via YAML and back:\n{inp}");
        }
    }
}

#[test]
fn yaml_problems_round_trip() {
    for dir in ["problems/teleport", "problems/kazan"] {
        for e in std::fs::read_dir(format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"))).unwrap() {
            let f = e.unwrap().path();
            if f.extension().is_none_or(|x| x != "yaml") {
                continue;
            }
            let name = f.display().to_string();
            let original = parse_text(
                &name,
                &std::fs::read_to_string(&f).unwrap(),
                SourceFormat::Yaml,
            )
            .unwrap();
            let inp = problems_to_inp(&original);
            let back = parse_text("converted.inp", &inp, SourceFormat::Popeye)
                .unwrap_or_else(|e| panic!("{name}: {e}\n{inp}"));
            for (a, b) in original.iter().zip(&back) {
                assert_eq!(meaning(a), meaning(b), "{name}:\n{inp}");
            }
        }
    }
}
