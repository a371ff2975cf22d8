// TEMPORARY STUB
use std::path::Path;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: String,
    pub source: String,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BookOrder {
    Sequential,
    Random,
}
pub fn load(_path: &Path, _plies: Option<usize>) -> anyhow::Result<Vec<Opening>> {
    unimplemented!()
}
pub fn default_book() -> Vec<Opening> {
    unimplemented!()
}
pub fn schedule(_book_len: usize, _pairs: usize, _order: BookOrder, _seed: u64, _start: usize) -> Vec<usize> {
    unimplemented!()
}
