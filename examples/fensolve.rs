use chainmate::position::Position;
use chainmate::problem::{Options, TwinInstance};
use chainmate::rules::{Condition, Rules};
use chainmate::search::Stipulation;
use chainmate::search::solve::{Settings, solve_twin};
use chainmate::output::text::twin_text;
use chainmate::output::notation::Style;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let mut pos = Position::from_fen(&a[1]).unwrap();
    pos.castling = pos.home_castling_rights(); pos.normalize();
    let inst = TwinInstance { label: String::new(), position: pos, stipulation: Stipulation::parse(&a[2]).unwrap(), condition: Condition::Orthodox };
    let mut s = Settings::default();
    s.options = Options { variations: a.iter().any(|x| x == "v"), tries: a.iter().any(|x| x == "t"), set_play: a.iter().any(|x| x == "s"), ..Options::default() };
    let r = solve_twin(&inst, &Rules::default(), &s);
    print!("{}", twin_text(&r, Style::Long));
    eprintln!("nodes {} secs {:.3}", r.nodes, r.seconds);
}
