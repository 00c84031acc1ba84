//! The fonts the window draws with, shipped ones included.

use eframe::egui;

/// A subset of Noto Sans CJK SC shipped with the app (licence in `assets/fonts/`):
/// Chinese, the white-space stand-ins (␣ ⏎) and symbols, on machines with no CJK font.
const CJK_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansSC-subset.otf");
const CJK_FONT_NAME: &str = "NotoSansSC-subset";

/// egui's bundled fonts, then fallbacks: the monospace font (Hack) for the
/// proportional family too (it carries arrows and symbols such as → and ◀), and
/// the shipped CJK font last in both families, so Chinese and the token stand-ins
/// render even on machines without system fonts.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(CJK_FONT_NAME.to_owned(), std::sync::Arc::new(egui::FontData::from_static(CJK_FONT)));
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        family.push("Hack".to_owned());
    }
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push(CJK_FONT_NAME.to_owned());
    }
    ctx.set_fonts(fonts);
}
