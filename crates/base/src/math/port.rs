//! exp, log, log10 and cos as glibc 2.36 computes them on x86-64 with FMA (the `__exp_fma`,
//! `__log_fma` and `__cos_fma` its loader picks on any x86-64 from 2013 on), operation for
//! operation: the same tables (tables.rs), the same constants, the same order of rounding, and
//! a fused multiply-add (`mul_add`) exactly where GCC fused one in that build. Written from the
//! algorithms' descriptions in glibc's sources (sysdeps/ieee754/dbl-64: e_exp.c, e_log.c,
//! e_log10.c, s_sin.c) and checked against its machine code; tests/integration/math.rs compares every function
//! with the platform's libm on the ranges the tuner calls it with.

use super::tables::{EXP, LOG, SINCOS};

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// e^x. Every input: the overflow and underflow cases as glibc returns them (without errno).
pub fn exp(x: f64) -> f64 {
    const INV_LN2_N: u64 = 0x40671547652b82fe;
    const NEG_LN2_HI_N: u64 = 0xbf762e42fefa0000;
    const NEG_LN2_LO_N: u64 = 0xbd0cf79abc9e3b3a;
    const C: [u64; 4] = [
        0x3fdffffffffffdbd,
        0x3fc555555555543c,
        0x3fa55555cf172b91,
        0x3f81111167a4d017,
    ];
    const SHIFT: f64 = 6755399441055744.0;
    let bits = x.to_bits();
    let mut abstop = ((bits >> 52) & 0x7ff) as u32;
    if abstop.wrapping_sub(0x3c9) >= 0x408 - 0x3c9 {
        if abstop.wrapping_sub(0x3c9) >= 0x8000_0000 {
            return 1.0 + x;
        }
        if abstop >= 0x409 {
            if bits == f64::NEG_INFINITY.to_bits() {
                return 0.0;
            }
            if abstop >= 0x7ff {
                return 1.0 + x;
            }
            return if bits >> 63 != 0 { 0.0 } else { f64::INFINITY };
        }
        abstop = 0;
    }
    let z = x.mul_add(d(INV_LN2_N), SHIFT);
    let ki = z.to_bits();
    let kd = z - SHIFT;
    let r = kd.mul_add(d(NEG_LN2_LO_N), kd.mul_add(d(NEG_LN2_HI_N), x));
    let idx = 2 * (ki % 128) as usize;
    let top = ki << 45;
    let tail = d(EXP[idx]);
    let sbits = EXP[idx + 1].wrapping_add(top);
    let r2 = r * r;
    let low = r.mul_add(d(C[1]), d(C[0]));
    let high = r.mul_add(d(C[3]), d(C[2]));
    let tmp = (r2 * r2).mul_add(high, low.mul_add(r2, tail + r));
    if abstop == 0 {
        return exp_edge(tmp, sbits, ki);
    }
    let scale = d(sbits);
    scale.mul_add(tmp, scale)
}

/// e^x for |x| ≥ 512, where the scale's exponent may leave the range of a double.
fn exp_edge(tmp: f64, sbits: u64, ki: u64) -> f64 {
    if ki & 0x8000_0000 == 0 {
        let scale = d(sbits.wrapping_sub(1009 << 52));
        return scale.mul_add(tmp, scale) * d(0x7f00000000000000);
    }
    let scale = d(sbits.wrapping_add(1022 << 52));
    let product = scale * tmp;
    let mut y = scale + product;
    if y < 1.0 {
        let lo = scale - y + product;
        let hi = 1.0 + y;
        let lo = 1.0 - hi + y + lo;
        y = (lo + hi) - 1.0;
        if y == 0.0 {
            y = 0.0;
        }
    }
    y * f64::MIN_POSITIVE
}

/// The natural logarithm. Every input (0 gives −∞, a negative number or NaN gives NaN).
pub fn ln(x: f64) -> f64 {
    const LO: u64 = 0x3fee000000000000; // 1 − 2^-4
    const HI: u64 = 0x3ff1090000000000; // 1 + 0x1.09p-4
    let mut ix = x.to_bits();
    if ix.wrapping_sub(LO) < HI - LO {
        return ln_near_one(x);
    }
    let top = (ix >> 48) as u32;
    if top.wrapping_sub(0x0010) >= 0x7ff0 - 0x0010 {
        if ix << 1 == 0 {
            return f64::NEG_INFINITY;
        }
        if ix == f64::INFINITY.to_bits() {
            return x;
        }
        if top & 0x8000 != 0 || top & 0x7ff0 == 0x7ff0 {
            return f64::NAN;
        }
        ix = (x * 4503599627370496.0).to_bits().wrapping_sub(52 << 52);
    }
    const LN2_HI: u64 = 0x3fe62e42fefa3800;
    const LN2_LO: u64 = 0x3d2ef35793c76730;
    const A: [u64; 5] = [
        0xbfe0000000000001,
        0x3fd555555551305b,
        0xbfcfffffffeb4590,
        0x3fc999b324f10111,
        0xbfc55575e506c89f,
    ];
    let tmp = ix.wrapping_sub(0x3fe6000000000000);
    let i = ((tmp >> 45) % 128) as usize;
    let k = (tmp as i64) >> 52;
    let iz = ix.wrapping_sub(tmp & (0xfff << 52));
    let (invc, logc) = (d(LOG[2 * i]), d(LOG[2 * i + 1]));
    let z = d(iz);
    let r = z.mul_add(invc, -1.0);
    let kd = k as f64;
    let w = kd.mul_add(d(LN2_HI), logc);
    let hi = w + r;
    let lo = kd.mul_add(d(LN2_LO), (w - hi) + r);
    let r2 = r * r;
    let r3 = r * r2;
    let inner = r.mul_add(d(A[4]), d(A[3]));
    let poly = inner.mul_add(r2, r.mul_add(d(A[2]), d(A[1])));
    r3.mul_add(poly, r2.mul_add(d(A[0]), lo)) + hi
}

/// ln x for x within about 1/16 of 1: a polynomial in x − 1 with the leading terms kept in
/// two parts.
fn ln_near_one(x: f64) -> f64 {
    const B: [u64; 11] = [
        0xbfe0000000000000,
        0x3fd5555555555577,
        0xbfcffffffffffdcb,
        0x3fc999999995dd0c,
        0xbfc55555556745a7,
        0x3fc24924a344de30,
        0xbfbfffffa4423d65,
        0x3fbc7184282ad6ca,
        0xbfb999eb43b068ff,
        0x3fb78182f7afd085,
        0xbfb5521375d145cd,
    ];
    if x == 1.0 {
        return 0.0;
    }
    let b = |i: usize| d(B[i]);
    let r = x - 1.0;
    let r2 = r * r;
    let r3 = r * r2;
    let p1 = r2.mul_add(b(3), r.mul_add(b(2), b(1)));
    let p2 = r2.mul_add(b(6), r.mul_add(b(5), b(4)));
    let p3 = r3.mul_add(b(10), r2.mul_add(b(9), r.mul_add(b(8), b(7))));
    let poly = p3.mul_add(r3, p2).mul_add(r3, p1);
    let rhi = (-134217728.0f64).mul_add(r, r.mul_add(134217728.0, r));
    let rlo = r - rhi;
    let rhi2 = rhi * rhi;
    let hi = rhi2.mul_add(b(0), r);
    let lo = rhi2.mul_add(b(0), r - hi);
    let lo = (b(0) * rlo).mul_add(r + rhi, lo);
    poly.mul_add(r3, lo) + hi
}

/// The base-10 logarithm, as glibc's e_log10.c computes it (fdlibm's: the binary exponent split
/// off exactly, the rest through [`ln`], the FMA `__ieee754_log` its build calls). Every input
/// (0 gives −∞, a negative number or NaN gives NaN).
pub fn log10(x: f64) -> f64 {
    const TWO54: u64 = 0x4350000000000000;
    const IVLN10: u64 = 0x3fdbcb7b1526e50e;
    const LOG10_2HI: u64 = 0x3fd34413509f6000;
    const LOG10_2LO: u64 = 0x3d59fef311f12b36;
    let mut x = x;
    let mut hx = (x.to_bits() >> 32) as i32;
    let lx = x.to_bits() as u32;
    let mut k: i32 = 0;
    if hx < 0x0010_0000 {
        // Below 2^-1022: zero, a negative number, or a subnormal scaled up.
        if ((hx & 0x7fff_ffff) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= d(TWO54);
        hx = (x.to_bits() >> 32) as i32;
    }
    if hx >= 0x7ff0_0000 {
        return x + x;
    }
    k += (hx >> 20) - 1023;
    let i = ((k as u32) & 0x8000_0000) >> 31;
    hx = (hx & 0x000f_ffff) | ((0x3ff - i as i32) << 20);
    let y = f64::from(k + i as i32);
    x = d((u64::from(hx as u32) << 32) | (x.to_bits() & 0xffff_ffff));
    let z = y * d(LOG10_2LO) + d(IVLN10) * ln(x);
    z + y * d(LOG10_2HI)
}

/// The cosine, for |x| < 105414350 (far beyond the tuner's arguments, which are below 2π);
/// larger inputs, whose reduction glibc does in many parts, fall back to the platform's cos.
pub fn cos(x: f64) -> f64 {
    const HP0: u64 = 0x3ff921fb54442d18;
    const HP1: u64 = 0x3c91a62633145c07;
    let k = ((x.to_bits() >> 32) & 0x7fff_ffff) as u32;
    if k < 0x3e40_0000 {
        1.0
    } else if k < 0x3feb_6000 {
        cos_near(x, 0.0)
    } else if k < 0x4003_68fd {
        let y = d(HP0) - x.abs();
        let a = y + d(HP1);
        let da = (y - a) + d(HP1);
        sin_near(a, da)
    } else if k < 0x4199_21fb {
        let (n, a, da) = reduce(x);
        let value = if n % 2 == 0 {
            cos_near(a, da)
        } else {
            sin_near(a, da)
        };
        if (n + 1) & 2 != 0 { -value } else { value }
    } else {
        x.cos()
    }
}

/// The quadrant n of x (x = n·π/2 + a + da) and a + da in [−π/4, π/4], π/2 in four parts.
fn reduce(x: f64) -> (u32, f64, f64) {
    const HPINV: u64 = 0x3fe45f306dc9c883;
    const TOINT: f64 = 6755399441055744.0;
    const MP1: u64 = 0x3ff921fb58000000;
    const MP2: u64 = 0xbe4dde973c000000;
    const PP3: u64 = 0xbc8cb3b398000000;
    const PP4: u64 = 0xbacd747f23e32ed7;
    let t = x.mul_add(d(HPINV), TOINT);
    let xn = t - TOINT;
    let n = (t.to_bits() & 3) as u32;
    let y = (-xn).mul_add(d(MP2), (-xn).mul_add(d(MP1), x));
    let t2 = (-xn).mul_add(d(PP3), y);
    let db = (-xn).mul_add(d(PP3), y - t2);
    let b = (-xn).mul_add(d(PP4), t2);
    let db = db + (-xn).mul_add(d(PP4), t2 - b);
    (n, b, db)
}

const BIG: f64 = 52776558133248.0; // 1.5 · 2^45: adding it rounds to a multiple of 1/128
const SN3: u64 = 0xbfc5555555555515;
const SN5: u64 = 0x3f811110e829872f;
const CS4: u64 = 0xbfa5555555555535;
const CS6: u64 = 0x3f56c16bedd9e239;

/// The table's row for |x| rounded to a multiple of 1/128, and |x| less that multiple.
fn table_row(x: f64) -> ([f64; 4], f64) {
    let u = BIG + x.abs();
    let i = 4 * (u.to_bits() as u32 as usize);
    let row = [SINCOS[i], SINCOS[i + 1], SINCOS[i + 2], SINCOS[i + 3]].map(d);
    (row, x.abs() - (u - BIG))
}

/// cos(x + dx) for |x| < 0.86, from the table's nearest point and short Taylor series.
fn cos_near(x: f64, dx: f64) -> f64 {
    let dx = if x < 0.0 { -dx } else { dx };
    let ([sn, ssn, cs, ccs], rest) = table_row(x);
    let x = rest + dx;
    let xx = x * x;
    let s = (x * xx).mul_add(xx.mul_add(d(SN5), d(SN3)), x);
    let c = xx * xx.mul_add(xx.mul_add(d(CS6), d(CS4)), 0.5);
    let cor = (-s).mul_add(sn, (-c).mul_add(cs, (-s).mul_add(ssn, ccs)));
    cs + cor
}

/// sin(x + dx) for |x| < 0.86: a Taylor polynomial below 0.126, the table above.
fn sin_near(x: f64, dx: f64) -> f64 {
    const S: [u64; 5] = [
        0xbfc5555555555555,
        0x3f81111111110ece,
        0xbf2a01a019db08b8,
        0x3ec71de27b9a7ed9,
        0xbe5addffc2fcdf59,
    ];
    if x.abs() < 0.126 {
        let xx = x * x;
        let poly = [S[3], S[2], S[1], S[0]]
            .iter()
            .fold(d(S[4]), |p, &s| xx.mul_add(p, d(s)));
        let t = xx.mul_add(poly.mul_add(x, -(0.5 * dx)), dx);
        return x + t;
    }
    let dx = if x <= 0.0 { -dx } else { dx };
    let ([sn, ssn, cs, ccs], rest) = table_row(x);
    let xx = rest * rest;
    let s = rest + (rest * xx).mul_add(xx.mul_add(d(SN5), d(SN3)), dx);
    let c = rest.mul_add(dx, xx * xx.mul_add(xx.mul_add(d(CS6), d(CS4)), 0.5));
    let cor = s.mul_add(cs, (-c).mul_add(sn, s.mul_add(ccs, ssn)));
    (sn + cor).copysign(x)
}
