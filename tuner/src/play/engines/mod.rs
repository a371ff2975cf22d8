//! What plays a move: the player the game loop asks, and its implementations (our engine in this
//! process, UCI and xboard binaries over their processes).

pub mod engine_failure;
pub mod engine_process;
pub mod external;
pub mod inprocess;
pub mod player;
pub mod uci_engine;
pub mod uci_option;
pub mod xboard;
pub mod xboard_engine;
pub mod xboard_text;
