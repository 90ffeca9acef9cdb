//! FIDE titles as TRF files write them, and the four titles gained by norms.

use core::fmt;

/// A FIDE title.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Title {
    Gm,
    Im,
    Fm,
    Cm,
    Wgm,
    Wim,
    Wfm,
    Wcm,
}

impl Title {
    /// A title from a TRF player record (`g`, `m`, `f`, `c`, `wg`, `wm`, `wf`, `wc`) or
    /// written out (`GM`, `IM`, …), in any case; `None` for anything else.
    ///
    /// ```
    /// use vizier_pairing::norm::Title;
    /// assert_eq!(Title::parse("g"), Some(Title::Gm));
    /// assert_eq!(Title::parse("WIM"), Some(Title::Wim));
    /// assert_eq!(Title::parse(""), None);
    /// ```
    pub fn parse(text: &str) -> Option<Title> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "g" | "gm" => Title::Gm,
            "m" | "im" => Title::Im,
            "f" | "fm" => Title::Fm,
            "c" | "cm" => Title::Cm,
            "wg" | "wgm" => Title::Wgm,
            "wm" | "wim" => Title::Wim,
            "wf" | "wfm" => Title::Wfm,
            "wc" | "wcm" => Title::Wcm,
            _ => return None,
        })
    }

    /// A title holder in the sense of the norms' opponent mix: every title but CM and WCM.
    pub fn holder(self) -> bool {
        !matches!(self, Title::Cm | Title::Wcm)
    }

    /// The title as a TRF player record writes it.
    ///
    /// ```
    /// use vizier_pairing::norm::Title;
    /// assert_eq!(Title::Wgm.trf_code(), "wg");
    /// ```
    pub fn trf_code(self) -> &'static str {
        match self {
            Title::Gm => "g",
            Title::Im => "m",
            Title::Fm => "f",
            Title::Cm => "c",
            Title::Wgm => "wg",
            Title::Wim => "wm",
            Title::Wfm => "wf",
            Title::Wcm => "wc",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Title::Gm => "GM",
            Title::Im => "IM",
            Title::Fm => "FM",
            Title::Cm => "CM",
            Title::Wgm => "WGM",
            Title::Wim => "WIM",
            Title::Wfm => "WFM",
            Title::Wcm => "WCM",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A title gained by norms, with the figures a norm asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NormTitle {
    Gm,
    Im,
    Wgm,
    Wim,
}

impl NormTitle {
    pub const ALL: [NormTitle; 4] = [NormTitle::Gm, NormTitle::Im, NormTitle::Wgm, NormTitle::Wim];

    /// The performance a norm needs.
    pub fn performance(self) -> i32 {
        match self {
            NormTitle::Gm => 2600,
            NormTitle::Im => 2450,
            NormTitle::Wgm => 2400,
            NormTitle::Wim => 2250,
        }
    }

    /// The lowest average rating of the opponents.
    pub fn average(self) -> i32 {
        match self {
            NormTitle::Gm => 2380,
            NormTitle::Im => 2230,
            NormTitle::Wgm => 2180,
            NormTitle::Wim => 2030,
        }
    }

    /// The adjusted rating floor: one opponent rated below it counts at it.
    pub fn floor(self) -> u32 {
        match self {
            NormTitle::Gm => 2200,
            NormTitle::Im => 2050,
            NormTitle::Wgm => 2000,
            NormTitle::Wim => 1850,
        }
    }

    /// Whether an opponent with `title` counts towards the third of opponents holding
    /// this title (a higher title counts too).
    pub fn counts(self, title: Title) -> bool {
        match self {
            NormTitle::Gm => title == Title::Gm,
            NormTitle::Im => matches!(title, Title::Gm | Title::Im),
            NormTitle::Wgm => matches!(title, Title::Gm | Title::Im | Title::Wgm),
            NormTitle::Wim => matches!(title, Title::Gm | Title::Im | Title::Wgm | Title::Wim),
        }
    }

    /// Whether a player holding `title` (of sex `sex`, `w` for women) may still gain
    /// this norm: it is above their title, and the women's titles are for women.
    pub fn open_to(self, title: Option<Title>, sex: char) -> bool {
        let women = matches!(self, NormTitle::Wgm | NormTitle::Wim);
        if women && !sex.eq_ignore_ascii_case(&'w') {
            return false;
        }
        match title {
            Some(held) => !self.counts(held),
            None => true,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            NormTitle::Gm => "GM",
            NormTitle::Im => "IM",
            NormTitle::Wgm => "WGM",
            NormTitle::Wim => "WIM",
        }
    }
}

impl fmt::Display for NormTitle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
