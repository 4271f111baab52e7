//! The `convert` command: Popeye input to YAML and back.

use super::*;

pub(super) fn convert_cmd(a: &ConvertArgs) -> Result<(), Failure> {
    // `-` reads standard input; its format is sniffed (Popeye's `BeginProblem`, a FEN
    // board, or YAML).
    let stdin_text = if a.file.as_os_str() == "-" {
        Some(read_text_arg(&a.file).map_err(Failure::Input)?)
    } else {
        None
    };
    let problems = match &stdin_text {
        Some(t) => problem::parse_text("<stdin>", t, problem::SourceFormat::sniff(t)),
        None => problem::load_file(&a.file),
    }?;
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
    Ok(())
}
