//! Undo and redo of config edits. An edit made of many frames (a slider drag) is
//! one step: the state before the drag is recorded when the drag ends.

#[derive(Clone, Debug)]
pub struct UndoStack<T> {
    past: Vec<T>,
    future: Vec<T>,
    limit: usize,
}

impl<T: Clone + PartialEq> Default for UndoStack<T> {
    fn default() -> Self {
        Self {
            past: Vec::new(),
            future: Vec::new(),
            limit: 200,
        }
    }
}

impl<T: Clone + PartialEq> UndoStack<T> {
    /// Record `before` as the state an edit started from.
    pub fn record(&mut self, before: T) {
        if self.past.last() == Some(&before) {
            return;
        }
        self.past.push(before);
        if self.past.len() > self.limit {
            self.past.remove(0);
        }
        self.future.clear();
    }

    /// Go back one edit from `current`; returns the state to show.
    pub fn undo(&mut self, current: &T) -> Option<T> {
        let previous = self.past.pop()?;
        self.future.push(current.clone());
        Some(previous)
    }

    pub fn redo(&mut self, current: &T) -> Option<T> {
        let next = self.future.pop()?;
        self.past.push(current.clone());
        Some(next)
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_then_redo_walks_back_and_forth() {
        let mut stack = UndoStack::default();
        let mut value = 1;
        stack.record(value);
        value = 2;
        stack.record(value);
        value = 3;
        value = stack.undo(&value).unwrap();
        assert_eq!(value, 2);
        value = stack.undo(&value).unwrap();
        assert_eq!(value, 1);
        assert!(stack.undo(&value).is_none());
        value = stack.redo(&value).unwrap();
        assert_eq!(value, 2);
        value = stack.redo(&value).unwrap();
        assert_eq!(value, 3);
        assert!(!stack.can_redo());
    }

    #[test]
    fn a_new_edit_drops_the_redo_branch() {
        let mut stack = UndoStack::default();
        stack.record(1);
        let v = stack.undo(&2).unwrap();
        assert_eq!(v, 1);
        stack.record(1);
        assert!(!stack.can_redo());
    }
}
