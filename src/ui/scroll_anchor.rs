//! Keeps the reader's place in a lesson when its text changes language. The two
//! texts differ in height, so the same scroll offset lands elsewhere; instead the
//! segment at the top of the view (a paragraph block, a try, a check, a claim) and
//! how far into it are found again in the new text. Each lesson's texts have the
//! same segments in the same order. A text is told apart by its title, which is
//! in its language: the lesson is read again in the new language a frame after
//! the switch, so the language alone would measure the old text as the new.

/// Where each segment of the shown text starts, and the place to return to once
/// a new language's text has been laid out.
#[derive(Default)]
pub struct ScrollAnchor {
    /// The lesson (id and title) the tops were measured for.
    shown: Option<(String, String)>,
    /// Each segment's top, from the top of the scrolled content.
    tops: Vec<f32>,
    /// The content's height and the scroll offset of the last frame.
    height: f32,
    offset: f32,
    /// Where to scroll once the new text is measured.
    pending: Option<Place>,
}

/// A reading place: a segment and the fraction of it above the view's top, and
/// the share of the whole text above it (for a text without that segment).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    segment: usize,
    fraction: f32,
    share: f32,
}

impl ScrollAnchor {
    /// Called before the body of `lesson` titled `title` is drawn: the offset to
    /// force this frame, if the text changed and its new layout has been measured.
    pub fn begin(&mut self, lesson: &str, title: &str) -> Option<f32> {
        match &self.shown {
            Some((id, shown)) if id == lesson && shown == title => {
                let place = self.pending.take()?;
                Some(offset_at(&self.tops, self.height, place))
            }
            Some((id, _)) if id == lesson => {
                // Laid out in the new language this frame, scrolled next frame.
                self.pending = Some(place(&self.tops, self.height, self.offset));
                self.shown = Some((lesson.to_string(), title.to_string()));
                None
            }
            _ => {
                // Another lesson opens at its own place.
                *self = ScrollAnchor { shown: Some((lesson.to_string(), title.to_string())), ..ScrollAnchor::default() };
                None
            }
        }
    }

    /// Whether a scroll is waiting for the next frame (which must then be drawn).
    pub fn waiting(&self) -> bool {
        self.pending.is_some()
    }

    /// The last frame's tops, emptied, to measure this frame's into (called after
    /// `begin`, which reads them): no new list every frame.
    pub fn reuse_tops(&mut self) -> Vec<f32> {
        let mut tops = std::mem::take(&mut self.tops);
        tops.clear();
        tops
    }

    /// The tops of this frame's segments (from the content's top), its height and
    /// its scroll offset.
    pub fn measured(&mut self, tops: Vec<f32>, height: f32, offset: f32) {
        (self.tops, self.height, self.offset) = (tops, height, offset);
    }
}

/// The place at `offset`.
fn place(tops: &[f32], height: f32, offset: f32) -> Place {
    let segment = tops.iter().rposition(|&top| top <= offset).unwrap_or(0);
    let (top, bottom) = span(tops, height, segment);
    let fraction = if bottom > top { ((offset - top) / (bottom - top)).clamp(0.0, 1.0) } else { 0.0 };
    let share = if height > 0.0 { (offset / height).clamp(0.0, 1.0) } else { 0.0 };
    Place { segment, fraction, share }
}

/// The offset of `place` in a text measured as `tops` and `height`; in a text
/// without its segment, the same share of the whole.
fn offset_at(tops: &[f32], height: f32, place: Place) -> f32 {
    if place.segment >= tops.len() {
        return height * place.share;
    }
    let (top, bottom) = span(tops, height, place.segment);
    top + place.fraction * (bottom - top)
}

/// A segment's top and bottom (the next one's top, or the content's end).
fn span(tops: &[f32], height: f32, segment: usize) -> (f32, f32) {
    let top = tops.get(segment).copied().unwrap_or(0.0);
    (top, tops.get(segment + 1).copied().unwrap_or(height).max(top))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Halfway into the third segment in English is halfway into the third in
    /// Chinese, wherever that lies; a switch back returns; another lesson starts
    /// fresh.
    #[test]
    fn a_language_switch_keeps_the_segment_at_the_top() {
        let mut anchor = ScrollAnchor::default();
        assert_eq!(anchor.begin("01", "Why attention"), None);
        anchor.measured(vec![0.0, 100.0, 300.0, 500.0], 800.0, 400.0);
        assert_eq!(anchor.begin("01", "Why attention"), None, "no switch, no scroll");
        assert_eq!(anchor.begin("01", "为什么需要注意力"), None, "the new text is laid out first");
        assert!(anchor.waiting());
        anchor.measured(vec![0.0, 60.0, 150.0, 250.0], 400.0, 400.0);
        assert_eq!(anchor.begin("01", "为什么需要注意力"), Some(200.0), "halfway from 150 to 250");
        assert!(!anchor.waiting());
        anchor.measured(vec![0.0, 60.0, 150.0, 250.0], 400.0, 200.0);
        assert_eq!(anchor.begin("01", "Why attention"), None);
        anchor.measured(vec![0.0, 100.0, 300.0, 500.0], 800.0, 200.0);
        assert_eq!(anchor.begin("01", "Why attention"), Some(400.0), "and back");
        assert_eq!(anchor.begin("02", "Why attention"), None, "another lesson");
        assert!(!anchor.waiting());
    }

    /// A text with fewer segments keeps the share of the whole; the last segment
    /// runs to the content's end.
    #[test]
    fn a_missing_segment_keeps_the_share_of_the_text() {
        let at = place(&[0.0, 100.0], 300.0, 200.0);
        assert_eq!((at.segment, at.fraction), (1, 0.5));
        assert_eq!(offset_at(&[0.0], 600.0, at), 400.0, "two thirds of the way, as before");
        assert_eq!(place(&[], 0.0, 0.0), Place { segment: 0, fraction: 0.0, share: 0.0 });
    }
}
