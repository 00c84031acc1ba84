//! Experiments that check a statement: claims (an A/B pair, a metric, an expected
//! relation) and the metrics they measure. Used by the mask debugger's comparisons,
//! the bug hunt's symptom checks and the lessons' `claim` blocks.

mod claim;
mod claim_pool;
mod claim_side;
mod claim_timed;
pub mod condition;
mod head_sweep;
mod length_cost;
mod map_measures;
mod measuring;
mod metric;
mod saturation;
mod share_out;

pub use claim::{Claim, ClaimResult, Divergence, SideRun, max_curve_gap};
pub use claim_pool::{ClaimOutcome, run_claims};
pub use condition::{Condition, ConditionResult, Op, Operand, Side, parse_condition, plain_number};
pub use head_sweep::{HEAD_COUNTS, HeadsOutcome, HeadsPoint, SweepVerdict, heads_config, measure_heads, measured, pick, verdict};
pub use length_cost::{LENGTH_SWEEP, LENGTH_SWEEP_STEPS, LengthCost, LengthOutcome, length_config, length_growth, measure_length};
pub use map_measures::{head_diversity, hidden_weight, normalised_entropy};
pub use measuring::Measuring;
pub use metric::{Measured, Metric};
pub use saturation::{SaturationPoint, saturation_sweep};
