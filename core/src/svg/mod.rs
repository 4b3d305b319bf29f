//! Pictures as SVG text that a web page can embed: a chess position ([`board`]) and a line chart
//! of ratings over time ([`chart`]).
//!
//! Every picture is a standalone SVG 1.1 document (no XML declaration, so it can be inlined in
//! HTML as it is) with `width`, `height` and `viewBox`. It has no `id`s, so several pictures on one
//! page cannot clash, and it is deterministic: the same input gives the same bytes (numbers are
//! written with at most two decimals by Rust's exact formatting, nothing depends on a clock, a
//! locale or a hash order). Pieces are vector shapes drawn here, not font glyphs, so every
//! renderer shows the same board; only coordinates and labels are text.

pub mod board;
pub mod chart;

pub use board::{board_svg, BoardSvgError};
pub use chart::{check_dimensions, rating_chart, ChartError, Series};

/// `text` escaped for XML character data and for attribute values in double or single quotes:
/// `& < > " '` become entities, and characters XML 1.0 does not allow at all (control characters
/// other than tab, newline and carriage return, U+FFFE, U+FFFF) become U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate: at most two decimals, no trailing zeros, never `-0`.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// The opening tag of a document of `width` x `height` pixels showing the user units
/// `0 0 view_width view_height`, and its `<title>` (escaped here).
pub(crate) fn open_document(
    out: &mut String,
    width: i32,
    height: i32,
    view_width: f64,
    view_height: f64,
    title: &str,
) {
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {} {}\">\n<title>{}</title>\n",
        num(view_width),
        num(view_height),
        escape(title)
    ));
}

pub(crate) fn close_document(out: &mut String) {
    out.push_str("</svg>\n");
}

#[cfg(test)]
pub(crate) mod test_xml {
    //! A small well-formedness check for the tests: tags balance, attributes are quoted once
    //! each, and text and attribute values hold no raw `<` and only known entities.

    /// One element: its name and attributes in order.
    #[derive(Debug, Clone)]
    pub struct Element {
        pub name: String,
        pub attrs: Vec<(String, String)>,
        /// The character data directly inside (entities decoded).
        pub text: String,
    }

    impl Element {
        pub fn attr(&self, name: &str) -> Option<&str> {
            self.attrs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        }
    }

    fn decode(s: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let end = rest[i..]
                .find(';')
                .ok_or_else(|| format!("unterminated entity in {s:?}"))?;
            out.push(match &rest[i..i + end + 1] {
                "&amp;" => '&',
                "&lt;" => '<',
                "&gt;" => '>',
                "&quot;" => '"',
                "&apos;" => '\'',
                e => return Err(format!("unknown entity {e}")),
            });
            rest = &rest[i + end + 1..];
        }
        out.push_str(rest);
        if out
            .chars()
            .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
        {
            return Err(format!("a character XML does not allow in {s:?}"));
        }
        Ok(out)
    }

    fn is_name(s: &str) -> bool {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':' | '_'))
    }

    /// Every element of `doc` in document order; an error names the first problem.
    pub fn parse(doc: &str) -> Result<Vec<Element>, String> {
        let mut elements: Vec<Element> = Vec::new();
        let mut open: Vec<(String, usize)> = Vec::new();
        let mut rest = doc;
        let mut roots = 0;
        loop {
            let Some(lt) = rest.find('<') else {
                if !rest.trim().is_empty() {
                    return Err(format!("text after the root: {rest:?}"));
                }
                break;
            };
            let text = &rest[..lt];
            if text.contains('>') {
                return Err(format!("raw > in text {text:?}"));
            }
            let text = decode(text)?;
            match open.last() {
                Some(&(_, i)) => elements[i].text.push_str(&text),
                None if !text.trim().is_empty() => return Err(format!("text outside: {text:?}")),
                None => {}
            }
            let gt = rest[lt..].find('>').ok_or("unterminated tag")? + lt;
            let tag = &rest[lt + 1..gt];
            rest = &rest[gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match open.pop() {
                    Some((n, _)) if n == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
                continue;
            }
            let (tag, empty) = match tag.strip_suffix('/') {
                Some(t) => (t, true),
                None => (tag, false),
            };
            let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
            let name = &tag[..name_end];
            if !is_name(name) {
                return Err(format!("bad element name {name:?}"));
            }
            let mut attrs: Vec<(String, String)> = Vec::new();
            let mut a = tag[name_end..].trim_start();
            while !a.is_empty() {
                let eq = a
                    .find('=')
                    .ok_or_else(|| format!("attribute without value in {tag:?}"))?;
                let an = &a[..eq];
                if !is_name(an) || attrs.iter().any(|(n, _)| n == an) {
                    return Err(format!("bad or repeated attribute {an:?}"));
                }
                let q = a[eq + 1..].chars().next().ok_or("no value")?;
                if q != '"' && q != '\'' {
                    return Err(format!("unquoted attribute {an}"));
                }
                let vstart = eq + 2;
                let vend = a[vstart..].find(q).ok_or("unterminated value")? + vstart;
                let v = &a[vstart..vend];
                if v.contains('<') {
                    return Err(format!("raw < in attribute {an}"));
                }
                attrs.push((an.to_owned(), decode(v)?));
                let after = &a[vend + 1..];
                if !after.is_empty() && !after.starts_with(char::is_whitespace) {
                    return Err(format!("no space after attribute {an}"));
                }
                a = after.trim_start();
            }
            if open.is_empty() {
                roots += 1;
            }
            elements.push(Element {
                name: name.to_owned(),
                attrs,
                text: String::new(),
            });
            if !empty {
                open.push((name.to_owned(), elements.len() - 1));
            }
        }
        if let Some((n, _)) = open.last() {
            return Err(format!("<{n}> is not closed"));
        }
        if roots != 1 {
            return Err(format!("{roots} root elements"));
        }
        Ok(elements)
    }

    /// Checks what every picture must be: one `<svg>` root of SVG 1.1 with width, height and
    /// viewBox; returns its elements.
    pub fn svg_document(doc: &str, width: i32, height: i32) -> Vec<Element> {
        let elements = parse(doc).unwrap_or_else(|e| panic!("not well-formed: {e}\n{doc}"));
        let root = &elements[0];
        assert_eq!(root.name, "svg");
        assert_eq!(root.attr("xmlns"), Some("http://www.w3.org/2000/svg"));
        assert_eq!(root.attr("version"), Some("1.1"));
        assert_eq!(root.attr("width"), Some(width.to_string().as_str()));
        assert_eq!(root.attr("height"), Some(height.to_string().as_str()));
        assert!(root.attr("viewBox").is_some());
        assert!(!doc.contains(" id="), "no ids");
        elements
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_quotes_and_forbidden_characters() {
        assert_eq!(
            escape(r#"<b> & "x" 'y'"#),
            "&lt;b&gt; &amp; &quot;x&quot; &apos;y&apos;"
        );
        assert_eq!(escape("a\u{1}b\u{FFFF}\tc"), "a\u{FFFD}b\u{FFFD}\tc");
        assert_eq!(escape("Grünfeld ♞"), "Grünfeld ♞");
        // the checker of the tests refuses what escape removes
        assert!(test_xml::parse("<a>x & y</a>").is_err());
        assert!(test_xml::parse("<a b=\"<\"/>").is_err());
        assert!(test_xml::parse("<a><b></a></b>").is_err());
        assert!(test_xml::parse("<a>\u{1}</a>").is_err());
        let e = test_xml::parse(&format!(
            "<a t=\"{}\">{}</a>",
            escape("\"<&'"),
            escape("<&>")
        ))
        .unwrap();
        assert_eq!(e[0].attr("t"), Some("\"<&'"));
        assert_eq!(e[0].text, "<&>");
    }

    #[test]
    fn numbers_have_at_most_two_decimals() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-2.25), "-2.25");
        assert_eq!(num(100.0), "100");
    }
}
