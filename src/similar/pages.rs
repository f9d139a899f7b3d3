//! Writing `judge similar`'s HTML (its summary page and, in the folder
//! beside it, a side-by-side page per pair shown), and the section `judge
//! grade --similarity` adds to the class page
//! ([`crate::grading::reports::ClassPageSection`]): where the pages go and
//! how they link. Rendering is [`super::html`]'s; writing a page set
//! atomically is the report layer's.

use super::html::{self, Placement};
use super::run::Analysis;
use crate::atomic_file;
use crate::grading::reports::{
    file_name, refuse_special_html, ClassPage, ClassPageSection, Section,
};
use crate::grading::GradingError;
use crate::report;
use crate::report::stdout::write_stdout;
use crate::report::targets::is_stdout;
use std::path::{Path, PathBuf};

/// Writes `judge similar`'s own HTML: the summary page and, in the folder
/// beside it, a side-by-side page per pair shown; `-` prints the one page.
pub(crate) fn write_html(path: &Path, analysis: &Analysis) -> Result<(), GradingError> {
    refuse_special_html(path)?;
    if is_stdout(path) {
        let pages = html::render(&analysis.report, &analysis.hand_ins, None, None, "");
        return write_stdout(&pages.summary).map_err(GradingError::Stdout);
    }
    // Through a link, the pages go beside its target, where the page is.
    let target = atomic_file::final_target(path)?;
    let path = target.as_path();
    let folder = report::page_folder(path);
    let summary_dir = summary_dir(path);
    let back = format!("../{}", html::encode(&file_name(path)));
    let pages = html::render(
        &analysis.report,
        &analysis.hand_ins,
        Some(&file_name(&folder)),
        summary_dir.as_deref(),
        &back,
    );
    report::write_page_set(path, &folder, pages.summary.as_bytes(), &pages.pairs)?;
    Ok(())
}

/// Side-by-side pages of `judge grade --similarity` are named
/// `similar.pair-N.html`: a submission's page name never holds a `.` before
/// `.html` (`report::html::page_names`), so the two never clash.
const SIMILAR_PAGE_PREFIX: &str = "similar.pair-";

/// `judge grade --similarity`: the comparison as a section of the class
/// page, its side-by-side pages in the class page's folder.
impl ClassPageSection for Analysis {
    fn render(&self, page: Option<&ClassPage<'_>>) -> Section {
        let summary_dir = page.and_then(|page| summary_dir(page.path));
        let back = page
            .map(|page| format!("../{}", html::encode(&file_name(page.path))))
            .unwrap_or_default();
        let placement = Placement {
            folder: page.map(|page| page.folder_name),
            summary_dir: summary_dir.as_deref(),
            back: &back,
            prefix: SIMILAR_PAGE_PREFIX,
        };
        let pages = html::render_section(&self.report, &self.hand_ins, &placement);
        Section {
            html: pages.summary,
            pages: if page.is_some() {
                pages.pairs
            } else {
                Vec::new()
            },
        }
    }
}

/// The absolute folder of a summary page, from which links to hand-ins are
/// made.
fn summary_dir(path: &Path) -> Option<PathBuf> {
    html::located(path).and_then(|path| path.parent().map(Path::to_owned))
}
