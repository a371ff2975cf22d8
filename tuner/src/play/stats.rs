// TEMPORARY STUB (replaced by the real module)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pentanomial(pub [u64; 5]);
impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
    pub fn add(&mut self, _a: GameScore, _b: GameScore) {}
}
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}
impl Wld {
    pub fn games(&self) -> u64 {
        0
    }
    pub fn score(&self) -> f64 {
        0.0
    }
    pub fn draw_ratio(&self) -> f64 {
        0.0
    }
    pub fn add(&mut self, _s: GameScore) {}
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    Win,
    Draw,
    Loss,
}
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
    pub lower: f64,
    pub upper: f64,
}
pub fn trinomial_elo(_w: &Wld) -> EloEstimate {
    unimplemented!()
}
pub fn pentanomial_elo(_p: &Pentanomial) -> EloEstimate {
    unimplemented!()
}
pub fn normalized_elo(_p: &Pentanomial) -> EloEstimate {
    unimplemented!()
}
pub fn los(_w: &Wld) -> f64 {
    0.0
}
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloModel {
    Logistic,
    Normalized,
}
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
}
impl std::fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "x")
    }
}
impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Sprt, String> {
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }
    pub fn bounds(&self) -> (f64, f64) {
        (0.0, 0.0)
    }
    pub fn llr(&self, _p: &Pentanomial) -> f64 {
        0.0
    }
    pub fn decision(&self, _llr: f64) -> Option<SprtDecision> {
        None
    }
}
pub fn performance_rating(_r: &[(f64, f64, f64)]) -> Option<f64> {
    None
}
