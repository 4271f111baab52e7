//! The `convert` command: Popeye input to YAML and back.

use super::*;

pub(super) fn convert_cmd(a: &ConvertArgs) -> i32 {
    // `-` reads standard input; its format is sniffed (Popeye's `BeginProblem`, a FEN
    // board, or YAML).
    let stdin_text = if a.file.as_os_str() == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("error: stdin: {e}");
            return EXIT_INPUT;
        }
        Some(s)
    } else {
        None
    };
    let loaded = match &stdin_text {
        Some(t) => problem::parse_text("<stdin>", t, problem::SourceFormat::sniff(t)),
        None => problem::load_file(&a.file),
    };
    let problems = match loaded {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let from_popeye = match &stdin_text {
        Some(t) => problem::SourceFormat::sniff(t) == problem::SourceFormat::Popeye,
        None => {
            problem::SourceFormat::from_extension(&a.file) == Some(problem::SourceFormat::Popeye)
        }
    };
    if from_popeye {
        print!("{}", crate::problem::yaml::problems_to_yaml(&problems));
    } else {
        print!("{}", crate::problem::inp::problems_to_inp(&problems));
    }
    EXIT_OK
}
