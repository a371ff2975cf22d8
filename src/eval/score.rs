//! The middle-game/end-game score pair.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A score with a middle-game and an end-game part, interpolated by game phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl S {
    pub const ZERO: S = S(0, 0);

    pub const fn mg(self) -> i32 {
        self.0
    }

    pub const fn eg(self) -> i32 {
        self.1
    }
}

/// A board written as printed (eight rows, rank 8 first) in a1-first square order.
pub const fn board(rows: [[S; 8]; 8]) -> [S; 64] {
    let mut out = [S(0, 0); 64];
    let mut rank = 0;
    while rank < 8 {
        let mut file = 0;
        while file < 8 {
            out[rank * 8 + file] = rows[7 - rank][file];
            file += 1;
        }
        rank += 1;
    }
    out
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
