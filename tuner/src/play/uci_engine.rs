// TEMPORARY STUB
use std::path::PathBuf;
use std::time::Duration;
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub working_dir: Option<PathBuf>,
}
#[derive(Clone, Debug, PartialEq)]
pub enum GoLimit {
    Nodes(u64),
    Depth(u32),
    MoveTime(u64),
    Clock { wtime: u64, btime: u64, winc: u64, binc: u64, movestogo: Option<u32> },
}
#[derive(Clone, Debug, PartialEq)]
pub struct EngineReply {
    pub bestmove: String,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub elapsed: Duration,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    Cp(i32),
    Mate(i32),
}
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("spawn {name}")]
    Spawn { name: String, command: String, source: std::io::Error },
    #[error("timeout {name}")]
    Timeout { name: String, waiting_for: String, timeout: Duration },
    #[error("disc {name}")]
    Disconnected { name: String, waiting_for: String, status: String },
    #[error("proto {name}")]
    Protocol { name: String, message: String },
    #[error("write {name}")]
    Write { name: String, source: std::io::Error },
}
pub struct UciEngine;
impl UciEngine {
    pub fn start(_spec: &EngineSpec, _timeout: Duration) -> Result<UciEngine, EngineError> {
        unimplemented!()
    }
    pub fn new_game(&mut self, _timeout: Duration) -> Result<(), EngineError> {
        unimplemented!()
    }
    pub fn go(
        &mut self,
        _f: &str,
        _m: &[String],
        _l: &GoLimit,
        _d: Duration,
    ) -> Result<EngineReply, EngineError> {
        unimplemented!()
    }
    pub fn is_alive(&mut self) -> bool {
        true
    }
}
