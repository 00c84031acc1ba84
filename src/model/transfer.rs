//! Keep trained weights across a config change: every parameter whose path and
//! shape are unchanged is carried over; the rest keep their fresh initial values.
//! A change of mask, scaling or attention kind keeps everything; a change of
//! d_model keeps almost nothing.

use std::collections::HashMap;

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamId};
use burn::tensor::Tensor;

/// A parameter's module path (e.g. `layers.1.attention.wq.weight`) and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamShape {
    pub path: String,
    pub shape: Vec<usize>,
}

#[derive(Default)]
struct PathStack(Vec<String>);

impl PathStack {
    fn current(&self) -> String {
        self.0.join(".")
    }
}

/// Every float parameter of a module, in visiting order.
pub fn param_shapes<M: Module>(module: &M) -> Vec<ParamShape> {
    struct Shapes {
        path: PathStack,
        out: Vec<ParamShape>,
    }
    impl ModuleVisitor for Shapes {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.path.0.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.path.0.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.out.push(ParamShape {
                path: self.path.current(),
                shape: param.lazy_shape().to_vec(),
            });
        }
    }
    let mut visitor = Shapes {
        path: PathStack::default(),
        out: Vec::new(),
    };
    module.visit(&mut visitor);
    visitor.out
}

/// Which parameters a transfer kept and which start fresh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TransferReport {
    pub kept: Vec<String>,
    pub fresh: Vec<String>,
}

impl TransferReport {
    pub fn kept_everything(&self) -> bool {
        self.fresh.is_empty()
    }
}

/// A parameter value kept aside while the new model is built.
struct Stored {
    shape: Vec<usize>,
    id: ParamId,
    value: Box<dyn std::any::Any>,
}

/// Copy every same-path, same-shape parameter of `from` into `to`.
pub fn transfer_matching<M: Module>(from: &M, to: M) -> (M, TransferReport) {
    struct Collect {
        path: PathStack,
        tensors: HashMap<String, Stored>,
    }
    impl ModuleVisitor for Collect {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.path.0.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.path.0.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let value = param.val();
            let stored = Stored {
                shape: value.dims().to_vec(),
                id: param.id,
                value: Box::new(value),
            };
            self.tensors.insert(self.path.current(), stored);
        }
    }
    struct Apply {
        path: PathStack,
        tensors: HashMap<String, Stored>,
        report: TransferReport,
    }
    impl ModuleMapper for Apply {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.path.0.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.path.0.pop();
        }
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let path = self.path.current();
            let shape = param.lazy_shape().to_vec();
            let old = self
                .tensors
                .remove(&path)
                .filter(|old| old.shape == shape)
                .and_then(|old| Some((old.id, old.value.downcast::<Tensor<D>>().ok()?)));
            match old {
                Some((id, value)) => {
                    // Keep the old id too, so the optimizer's state for it carries over.
                    self.report.kept.push(path);
                    let (_, fresh, mapper) = param.consume();
                    // A change of backend moves the kept weights to the new model's device.
                    let device = fresh.device();
                    let value = if value.device() == device { *value } else { value.to_device(&device).detach().require_grad() };
                    Param::from_mapped_value(id, value, mapper)
                }
                None => {
                    self.report.fresh.push(path);
                    param
                }
            }
        }
    }
    let mut collect = Collect {
        path: PathStack::default(),
        tensors: HashMap::new(),
    };
    from.visit(&mut collect);
    let mut apply = Apply {
        path: PathStack::default(),
        tensors: collect.tensors,
        report: TransferReport::default(),
    };
    let to = to.map(&mut apply);
    (to, apply.report)
}
