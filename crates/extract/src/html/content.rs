//! Main-content selection: block scoring in the spirit of Readability, on the
//! light arena tree of [`super::dom`], with semantic hints (`<article>`,
//! `itemprop=articleBody`, class names) and boilerplate pruning.
//!
//! Everything is iterative over the arena (parents precede children), so the
//! cost is linear in the number of nodes and no recursion depth is involved.

use super::dom::{Dom, NONE, Tag};
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    /// Boilerplate whatever it holds: comments, consent banners, navigation,
    /// sharing and "related" blocks.
    unlikely: Regex,
    /// Consent banners, pop-ups and sign-up overlays: never content, however
    /// much text they hold.
    overlay: Regex,
    /// Links to other pages ("related", "read more", previous/next post):
    /// a class such as `related_post` must not pass for content.
    recirculation: Regex,
    /// Author boxes and bylines.
    author: Regex,
    /// Comments and replies: boilerplate beside an article, the content of
    /// a forum thread or a live ticker.
    discussion: Regex,
    /// Boilerplate unless it holds real paragraphs: ad slots, banners and
    /// headers are also class names of content wrappers (`section--ads`,
    /// `page-banner-placeholder`, `header-and-body`).
    weak: Regex,
    maybe: Regex,
    positive: Regex,
    negative: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        unlikely: Regex::new(
            r"breadcrumb|footer|legend|menu|related|rss|rating|copyright|credits\b|image-credit|photo-credit|image-source|disclaimer|affiliate|postmetadata|entry-meta|entry-utility|post-meta|article-meta|shoutbox|sidebar|social-(?:share|links|icons|media-links|follow|bar)|socials|follow-us|pagination|\bpager|subscribe|signup|share|sharing|recommend|author-(?:bio|box|profile|info|description)|about-(?:the-)?author|bio-?box|role-contentinfo|role-complementary|role-navigation|role-banner|upsell|cross-?sell|outbrain|taboola|nav(?:igation|bar)?\b|toolbar|skip-link|visually-hidden|sr-only|screen-reader|caption|most-read|mostread|trending|read-more|readmore|more-stories|recirc|print-only",
        )
        .unwrap(),
        overlay: Regex::new(
            r"cookie|consent|gdpr|popup|modal|dialog|newsletter|agegate|onetrust|didomi|usercentrics|cmplz|\blogin|\bsign-?in\b",
        )
        .unwrap(),
        recirculation: Regex::new(
            r"related|recommend|more-stories|read-?more|recirc|trending|most-?read|prev-?next|next-?prev|prev-post|next-post|post-nav",
        )
        .unwrap(),
        author: Regex::new(r"author|contributor|\bbio\b|[-_]bio\b|biography").unwrap(),
        discussion: Regex::new(r"comment|disqus|replies|respond").unwrap(),
        weak: Regex::new(
            r"-ad-|\bads?\b|advert|ai2html|banner|combx|community|cover-wrap|extra|\bheader|remark|skyscraper|sponsor|supplemental|ad-break|promo|\bwidget|masthead|credit|teaser",
        )
        .unwrap(),
        maybe: Regex::new(r"\band\b|article|body|column|content|main|shadow|post|story|entry|text").unwrap(),
        positive: Regex::new(r"article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose").unwrap(),
        negative: Regex::new(
            r"-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot|footnote|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|byline|author|dateline|caption|credit|newsletter|subscribe|recirc|more-stories|read-more|readmore",
        )
        .unwrap(),
    })
}

/// Per-node statistics, computed bottom-up.
#[derive(Debug, Clone, Copy, Default)]
struct Stat {
    /// Text bytes under the node (excluding pruned subtrees).
    len: u32,
    /// Text bytes under links.
    link_len: u32,
    /// Text bytes directly in the node or its inline descendants.
    inline_len: u32,
    commas: u32,
    inline_commas: u32,
    /// Link text bytes directly in the node or its inline descendants.
    inline_link: u32,
    /// Bytes of "good" paragraphs under the node: blocks with at least
    /// [`GOOD_PARAGRAPH`] bytes of inline text, mostly not links.
    good: u32,
    /// The part of `good` in list items and table cells (teaser lists and
    /// listings look like that).
    list_good: u32,
    li: u32,
    /// Headings that are (mostly) links: teaser lists have many.
    linked_headings: u32,
    p: u32,
}

fn class_weight(ci: &str) -> i32 {
    if ci.is_empty() {
        return 0;
    }
    let p = patterns();
    let mut w = 0;
    if p.negative.is_match(ci) {
        w -= 25;
    }
    if p.positive.is_match(ci) {
        w += 25;
    }
    w
}

/// Prose outside comment-like blocks below which a page is a discussion.
const DISCUSSION_REST: u32 = 500;

/// Inline text a block needs to count as a real paragraph.
const GOOD_PARAGRAPH: u32 = 60;

fn is_paragraph(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::P | Tag::Pre | Tag::Blockquote | Tag::Td | Tag::Li | Tag::Dd
    )
}

/// Extracts the main text of the page, or `None` if the page has no text.
pub fn main_text(dom: &Dom, title: Option<&str>) -> String {
    let n = dom.nodes.len();
    let pats = patterns();
    // 1. Pruning (forward: parents first). Hidden and boilerplate elements go;
    // class/id patterns only prune elements holding under half of the page's
    // text (wrappers with unlucky class names must survive).
    let mut pruned = vec![false; n];
    for i in 1..n {
        let node = &dom.nodes[i];
        pruned[i] = pruned[node.parent as usize]
            || (node.tag != Tag::Text
                && (node.hidden
                    || matches!(
                        node.tag,
                        Tag::Menu | Tag::Head | Tag::Figcaption | Tag::Figure
                    )));
    }
    // Text and paragraph text of every subtree before class-name pruning.
    let mut raw_len = vec![0u32; n];
    let mut raw_link = vec![0u32; n];
    let mut raw_good = vec![0u32; n];
    let mut in_link = vec![false; n];
    for i in 1..n {
        let p = dom.nodes[i].parent as usize;
        in_link[i] = in_link[p] || dom.nodes[i].tag == Tag::A;
    }
    // Text directly in a block or its inline descendants (and the link part).
    let mut raw_inline = vec![(0u32, 0u32); n];
    for i in (1..n).rev() {
        if pruned[i] {
            continue;
        }
        let node = &dom.nodes[i];
        if node.tag == Tag::Text {
            let l = dom.node_text(i as u32).trim().len() as u32;
            raw_len[i] += l;
            raw_inline[i].0 = l;
            if in_link[i] {
                raw_link[i] += l;
                raw_inline[i].1 = l;
            }
        } else if node.tag.is_block() && !node.tag.is_heading() {
            let (il, ilink) = raw_inline[i];
            if il >= GOOD_PARAGRAPH && ilink * 3 < il {
                raw_good[i] += il - ilink;
            }
        }
        let p = node.parent as usize;
        raw_len[p] += raw_len[i];
        raw_link[p] += raw_link[i];
        raw_good[p] += raw_good[i];
        if node.tag == Tag::Text || !node.tag.is_block() {
            raw_inline[p].0 += raw_inline[i].0;
            raw_inline[p].1 += raw_inline[i].1;
        }
    }
    let total = raw_len[0].max(1);
    let total_good = raw_good[0];
    let mut in_article = vec![false; n];
    for i in 1..n {
        let p = dom.nodes[i].parent as usize;
        in_article[i] = in_article[p] || matches!(dom.nodes[p].tag, Tag::Article | Tag::Main);
    }
    // Prose in comment-like blocks (outermost ones): when it is most of the
    // page's prose, the page is a discussion (forum thread, live ticker,
    // questions and answers) and the comments are its content.
    let mut discussion = vec![false; n];
    let mut discussion_good = 0u32;
    for i in 1..n {
        let node = &dom.nodes[i];
        let p = node.parent as usize;
        if pruned[i] || node.tag == Tag::Text {
            continue;
        }
        if discussion[p] {
            discussion[i] = true;
        } else if !dom.class_id(i as u32).is_empty()
            && pats.discussion.is_match(dom.class_id(i as u32))
        {
            discussion[i] = true;
            discussion_good += raw_good[i];
        }
    }
    let is_discussion =
        discussion_good >= 300 && (total_good - discussion_good.min(total_good)) < DISCUSSION_REST;
    for i in 1..n {
        let node = &dom.nodes[i];
        if pruned[node.parent as usize] {
            pruned[i] = true;
            continue;
        }
        if pruned[i] || node.tag == Tag::Text {
            continue;
        }
        let ci = dom.class_id(i as u32);
        if ci.is_empty() && !matches!(node.tag, Tag::Header | Tag::Footer | Tag::Nav | Tag::Aside) {
            continue;
        }
        let overlay = pats.overlay.is_match(ci) || pats.recirculation.is_match(ci);
        // Author boxes (bio, contributor card, byline tooltip) go unless they
        // hold most of the page's prose (an author's own page).
        if pats.author.is_match(ci)
            && !(raw_good[i] >= 300 && raw_good[i] * 2 >= total_good)
            && !matches!(node.tag, Tag::Body | Tag::Html | Tag::Main | Tag::Article)
        {
            pruned[i] = true;
            continue;
        }
        if overlay
            && !pats.maybe.is_match(ci)
            && !matches!(node.tag, Tag::Body | Tag::Html | Tag::Main | Tag::Article)
        {
            pruned[i] = true;
            continue;
        }
        // Whatever its tag or class says, an element holding most of the
        // page's prose is (or wraps) the content: an unclosed `<header>`,
        // a layout class such as `one-sidebar-second`, an `<aside>` misused
        // as the article column.
        let holds_prose = raw_good[i] >= 300 && raw_good[i] * 2 >= total_good;
        // The header of an article (title, lede, byline) is judged by its
        // classes like any block; the page's header goes.
        let article_header = node.tag == Tag::Header && in_article[i];
        if !article_header && matches!(node.tag, Tag::Header | Tag::Footer | Tag::Nav | Tag::Aside)
        {
            pruned[i] = !holds_prose;
            continue;
        }
        if raw_len[i] * 2 > total || holds_prose {
            continue;
        }
        let ci = dom.class_id(i as u32);
        if ci.is_empty()
            || node.body_hint
            || matches!(
                node.tag,
                Tag::Body | Tag::Html | Tag::Article | Tag::Main | Tag::A
            )
        {
            continue;
        }
        // Class names such as `entry-content` or `post-body` may save an
        // element from the boilerplate patterns only if it holds prose
        // (`jp-relatedposts` holds a heading and teasers).
        let prose = raw_good[i] >= 300 && raw_good[i] * 2 >= raw_len[i];
        let maybe = pats.maybe.is_match(ci);
        pruned[i] = if overlay
            || pats.unlikely.is_match(ci)
            || (!is_discussion && pats.discussion.is_match(ci))
        {
            !(maybe && prose)
        } else {
            pats.weak.is_match(ci) && !maybe && !prose
        };
    }
    // 2. Statistics (reverse: children first).
    let mut st = vec![Stat::default(); n];
    for i in (1..n).rev() {
        if pruned[i] {
            continue;
        }
        let node = &dom.nodes[i];
        if node.tag == Tag::Text {
            let t = dom.node_text(i as u32);
            let len = t.trim().len() as u32;
            let commas = t.matches([',', '，', '、']).count() as u32;
            let s = &mut st[i];
            s.len = len;
            s.inline_len = len;
            s.commas = commas;
            s.inline_commas = commas;
            if in_link[i] {
                s.link_len = len;
                s.inline_link = len;
            }
        }
        match node.tag {
            Tag::Li => st[i].li += 1,
            t if t.is_heading() && st[i].link_len * 2 > st[i].len => st[i].linked_headings += 1,
            Tag::P => st[i].p += 1,
            _ => {}
        }
        if node.tag.is_block() && !node.tag.is_heading() {
            let s = &mut st[i];
            if s.inline_len >= GOOD_PARAGRAPH && s.inline_link * 3 < s.inline_len {
                s.good += s.inline_len - s.inline_link;
                if matches!(node.tag, Tag::Li | Tag::Td | Tag::Dd | Tag::Dt) {
                    s.list_good += s.inline_len - s.inline_link;
                }
            }
        }
        let s = st[i];
        let p = node.parent as usize;
        let ps = &mut st[p];
        ps.len += s.len;
        ps.good += s.good;
        ps.list_good += s.list_good;
        ps.link_len += s.link_len;
        ps.commas += s.commas;
        ps.li += s.li;
        ps.linked_headings += s.linked_headings;
        ps.p += s.p;
        if !node.tag.is_block() || node.tag == Tag::Text {
            ps.inline_len += s.inline_len;
            ps.inline_commas += s.inline_commas;
            ps.inline_link += s.inline_link;
        }
    }
    // Cards of a listing: runs of at least three sibling blocks of the same
    // tag and class, each small and holding a link (teaser, product tile).
    // Their prose counts as list prose (see `list_good`).
    for parent in 0..n {
        if pruned[parent] || dom.nodes[parent].tag == Tag::Text {
            continue;
        }
        // Runs of consecutive element children with the same key.
        let mut c = dom.nodes[parent].first_child;
        while c != NONE {
            if pruned[c as usize] || dom.nodes[c as usize].tag == Tag::Text {
                c = dom.nodes[c as usize].next;
                continue;
            }
            let k = card_key(dom, c);
            let mut run_len = 0usize;
            let mut all_small = true;
            let mut x = c;
            let mut after = NONE;
            while x != NONE {
                let xn = &dom.nodes[x as usize];
                if pruned[x as usize] || xn.tag == Tag::Text {
                    x = xn.next;
                    continue;
                }
                if card_key(dom, x) != k {
                    after = x;
                    break;
                }
                let s = &st[x as usize];
                all_small &= s.len < 1000 && s.link_len > 0;
                run_len += 1;
                x = xn.next;
            }
            let is_cards = run_len >= 3
                && all_small
                && matches!(
                    dom.nodes[c as usize].tag,
                    Tag::Article | Tag::Div | Tag::Li | Tag::Section
                );
            if is_cards {
                let mut y = c;
                while y != after {
                    if !pruned[y as usize] && dom.nodes[y as usize].tag != Tag::Text {
                        let delta = st[y as usize].good - st[y as usize].list_good;
                        let mut z = y;
                        while z != NONE {
                            st[z as usize].list_good += delta;
                            z = dom.nodes[z as usize].parent;
                        }
                    }
                    y = dom.nodes[y as usize].next;
                }
            }
            c = after;
        }
    }
    // 3. Scoring.
    let mut score = vec![f32::NAN; n];
    let init = |i: usize, score: &mut Vec<f32>| {
        if score[i].is_nan() {
            let node = &dom.nodes[i];
            let base = match node.tag {
                Tag::Div | Tag::Article | Tag::Main | Tag::Section => 5.0,
                Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
                Tag::Address
                | Tag::Ol
                | Tag::Ul
                | Tag::Dl
                | Tag::Dd
                | Tag::Dt
                | Tag::Li
                | Tag::Form => -3.0,
                Tag::Th => -5.0,
                t if t.is_heading() => -5.0,
                _ => 0.0,
            };
            let hint = if node.body_hint { 30.0 } else { 0.0 };
            let art = if node.tag == Tag::Article { 10.0 } else { 0.0 };
            score[i] = base + hint + art + class_weight(dom.class_id(i as u32)) as f32;
        }
    };
    for i in 1..n {
        if pruned[i] {
            continue;
        }
        let node = &dom.nodes[i];
        if node.tag == Tag::Text || !node.tag.is_block() || node.tag.is_heading() {
            continue;
        }
        let s = st[i];
        if s.inline_len < 25 {
            continue;
        }
        let content = 1.0 + s.inline_commas as f32 + (s.inline_len as f32 / 100.0).min(3.0);
        let mut anc = if is_paragraph(node.tag) {
            node.parent
        } else {
            i as u32
        };
        let mut level = 0;
        while anc != NONE && anc != 0 && level < 5 {
            let a = anc as usize;
            if dom.nodes[a].tag == Tag::Html {
                break;
            }
            init(a, &mut score);
            let div = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            score[a] += content / div;
            anc = dom.nodes[a].parent;
            level += 1;
        }
    }
    let mut top = NONE;
    let mut top_score = f32::MIN;
    for i in 1..n {
        if score[i].is_nan() || pruned[i] {
            continue;
        }
        let s = st[i];
        let ld = if s.len > 0 {
            s.link_len as f32 / s.len as f32
        } else {
            0.0
        };
        score[i] *= 1.0 - ld;
        if score[i] > top_score {
            top_score = score[i];
            top = i as u32;
        }
    }
    if top == NONE {
        return render(dom, &pruned, &st, &[0], title);
    }
    // Walk up while the parent scores comparably (content split in sub-blocks).
    let mut cur = top;
    let mut last = top_score;
    loop {
        let p = dom.nodes[cur as usize].parent;
        if p == NONE || p == 0 || matches!(dom.nodes[p as usize].tag, Tag::Body | Tag::Html) {
            break;
        }
        let ps = score[p as usize];
        if ps.is_nan() {
            // An only child: the parent is the same block.
            if dom
                .children(p)
                .filter(|&c| !pruned[c as usize] && st[c as usize].len > 0)
                .count()
                == 1
            {
                cur = p;
                continue;
            }
            break;
        }
        if ps < last / 3.0 {
            break;
        }
        if ps > last {
            top = p;
            top_score = ps;
        }
        last = ps;
        cur = p;
    }
    // Articles split over sibling blocks of the same kind (cards, sections):
    // climb through wrappers; if the candidate's (or a wrapper's) siblings of
    // the same tag and class hold a good share of paragraph text, they are
    // the rest of the article.
    let mut cand = top;
    let mut split_roots: Option<Vec<u32>> = None;
    loop {
        let p = dom.nodes[cand as usize].parent;
        if p == NONE || p == 0 || matches!(dom.nodes[p as usize].tag, Tag::Body | Tag::Html) {
            break;
        }
        let (tag, ci) = (dom.nodes[cand as usize].tag, dom.class_id(cand));
        let similar: Vec<u32> = dom
            .children(p)
            .filter(|&c| {
                !pruned[c as usize] && dom.nodes[c as usize].tag == tag && dom.class_id(c) == ci
            })
            .collect();
        let gain: u32 = similar
            .iter()
            .filter(|&&c| c != cand)
            .map(|&c| st[c as usize].good)
            .sum();
        let g = st[top as usize].good;
        if similar.len() > 1 && gain >= g / 3 && gain >= 200 {
            split_roots = Some(similar);
            break;
        }
        if st[p as usize].good == st[cand as usize].good {
            cand = p;
        } else {
            break;
        }
    }
    if let Some(roots) = split_roots {
        return render_best(dom, &pruned, &st, roots, title);
    }
    // 4. Siblings of the top candidate that belong to the article.
    let parent = dom.nodes[top as usize].parent;
    let mut roots = Vec::new();
    if parent == NONE {
        roots.push(top);
    } else {
        let threshold = (top_score * 0.2).max(10.0);
        let top_ci = dom.class_id(top);
        for c in dom.children(parent) {
            if pruned[c as usize] {
                continue;
            }
            if c == top {
                roots.push(c);
                continue;
            }
            let ci = dom.class_id(c);
            let bonus = if !top_ci.is_empty() && ci == top_ci {
                top_score * 0.2
            } else {
                0.0
            };
            let sc = score[c as usize];
            if is_teaser_list(&st[c as usize]) {
                continue;
            }
            if !sc.is_nan() && sc + bonus >= threshold {
                roots.push(c);
                continue;
            }
            let node = &dom.nodes[c as usize];
            if node.tag == Tag::P {
                let s = st[c as usize];
                let ld = if s.len > 0 {
                    s.link_len as f32 / s.len as f32
                } else {
                    0.0
                };
                if (s.len > 80 && ld < 0.25)
                    || (s.len > 0 && ld == 0.0 && {
                        let t = subtree_text(dom, c);
                        t.contains(". ") || t.trim_end().ends_with('.')
                    })
                {
                    roots.push(c);
                }
            }
        }
    }
    render_best(dom, &pruned, &st, roots, title)
}

/// Weight of text outside good paragraphs against the paragraphs, in
/// [`text_mass`].
const NOISE_WEIGHT: f32 = 0.5;

/// Paragraph text of a subtree minus a share of everything else in it: the
/// subtree that maximises it holds the page's prose and little else.
fn text_mass(s: &Stat) -> f32 {
    s.good as f32
        - LIST_DISCOUNT * s.list_good as f32
        - NOISE_WEIGHT * (s.len - s.good.min(s.len)) as f32
        - TEASER_WEIGHT * s.linked_headings as f32
}

/// The deepest element enclosing all `roots` (the root itself if one).
fn common_ancestor(dom: &Dom, roots: &[u32]) -> u32 {
    let chain = |mut x: u32| {
        let mut v = Vec::new();
        while x != NONE {
            v.push(x);
            x = dom.nodes[x as usize].parent;
        }
        v.reverse();
        v
    };
    let Some(&first) = roots.first() else {
        return NONE;
    };
    let mut common = chain(first);
    for &r in &roots[1..] {
        let c = chain(r);
        let same = common.iter().zip(&c).take_while(|(a, b)| a == b).count();
        common.truncate(same);
    }
    common.last().copied().unwrap_or(NONE)
}

/// Prose mass an enclosing block must add to replace the roots.
const WIDEN_MARGIN: f32 = 100.0;

/// Share of list-item prose not counted in [`text_mass`].
const LIST_DISCOUNT: f32 = 0.5;

/// Prose a linked heading (a teaser) costs in [`text_mass`].
const TEASER_WEIGHT: f32 = 250.0;

/// Second opinion on the chosen roots: when another block holds much more
/// prose (a teaser or a box won the paragraph scoring, or the content is
/// nested deeper than the score propagates), that block is the content.
fn render_best(
    dom: &Dom,
    pruned: &[bool],
    st: &[Stat],
    mut roots: Vec<u32>,
    title: Option<&str>,
) -> String {
    let mut best = NONE;
    let mut best_mass = f32::MIN;
    for (i, node) in dom.nodes.iter().enumerate().skip(1) {
        if pruned[i]
            || node.tag == Tag::Text
            || !node.tag.is_block()
            || matches!(node.tag, Tag::Html | Tag::Body)
        {
            continue;
        }
        let m = text_mass(&st[i]);
        if m > best_mass {
            best_mass = m;
            best = i as u32;
        }
    }
    // Prose outside list items: teaser lists must not make a block win.
    let prose = |s: &Stat| s.good - s.list_good.min(s.good);
    let roots_good: u32 = roots.iter().map(|&r| prose(&st[r as usize])).sum();
    if best != NONE {
        let b = prose(&st[best as usize]);
        let roots_mass: f32 = roots.iter().map(|&r| text_mass(&st[r as usize])).sum();
        if b >= 200 && b * 2 >= roots_good * 3 && best_mass >= roots_mass * 1.5 {
            roots = vec![best];
        }
    }
    // An ancestor that adds more prose than noise holds the rest of the
    // content (a lede or summary in a sibling block, sections in separate
    // containers). Stricter than `text_mass`: list prose does not count and
    // every byte of other text costs one byte of prose.
    let strict = |s: &Stat| {
        (s.good - s.list_good.min(s.good)) as f32
            - (s.len - s.good.min(s.len)) as f32
            - TEASER_WEIGHT * s.linked_headings as f32
    };
    let base: f32 = roots.iter().map(|&r| strict(&st[r as usize])).sum();
    let mut anc = common_ancestor(dom, &roots);
    let (mut wide, mut wide_mass) = (NONE, base + WIDEN_MARGIN);
    while anc != NONE
        && !matches!(
            dom.nodes[anc as usize].tag,
            Tag::Html | Tag::Body | Tag::Root
        )
    {
        let m = strict(&st[anc as usize]);
        if m >= wide_mass && (roots.len() > 1 || roots[0] != anc) {
            wide = anc;
            wide_mass = m;
        }
        anc = dom.nodes[anc as usize].parent;
    }
    if wide != NONE {
        roots = vec![wide];
    }
    let roots = with_scattered_prose(dom, pruned, st, roots);
    render(dom, pruned, st, &roots, title)
}

/// Paragraphs of the page's main region (`<main>`, `role=main`, the
/// `<article>`) outside the chosen roots: product descriptions in tabs,
/// recipe steps, a lede above the text column. Added in document order.
fn with_scattered_prose(dom: &Dom, pruned: &[bool], st: &[Stat], roots: Vec<u32>) -> Vec<u32> {
    let mut region = common_ancestor(dom, &roots);
    while region != NONE {
        let node = &dom.nodes[region as usize];
        if matches!(node.tag, Tag::Main | Tag::Article) || node.body_hint {
            break;
        }
        region = node.parent;
    }
    if region == NONE || roots.contains(&region) {
        return roots;
    }
    let end = subtree_end(dom, region);
    let mut out = Vec::new();
    let mut i = region as usize + 1;
    while i < end {
        let node = &dom.nodes[i];
        if pruned[i] || roots.contains(&(i as u32)) {
            // Skip the whole subtree.
            i = subtree_end(dom, i as u32);
            continue;
        }
        let s = &st[i];
        if node.tag.is_block()
            && !node.tag.is_heading()
            && node.tag != Tag::Text
            && s.list_good == 0
            && s.inline_len >= SCATTERED_PARAGRAPH
            && s.inline_link * 4 < s.inline_len
            && !in_teaser(dom, st, i as u32, region)
        {
            out.push(i as u32);
            i = subtree_end(dom, i as u32);
            continue;
        }
        i += 1;
    }
    if out.is_empty() {
        return roots;
    }
    out.extend(roots);
    out.sort_unstable();
    out
}

/// Cards share a tag and their first class (ids and numbers aside:
/// `post-123 category-x`).
fn card_key(dom: &Dom, c: u32) -> (Tag, &str) {
    let first = dom.class_id(c).split_whitespace().next().unwrap_or("");
    (
        dom.nodes[c as usize].tag,
        first.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '-' || ch == '_'),
    )
}

/// Whether `id` sits in a small block with a linked heading (a teaser)
/// below `region`.
fn in_teaser(dom: &Dom, st: &[Stat], id: u32, region: u32) -> bool {
    let mut x = dom.nodes[id as usize].parent;
    while x != NONE && x != region {
        let s = &st[x as usize];
        if s.len >= 1500 {
            return false;
        }
        if s.linked_headings > 0 {
            return true;
        }
        x = dom.nodes[x as usize].parent;
    }
    false
}

/// Inline text of a paragraph outside the roots that joins them.
const SCATTERED_PARAGRAPH: u32 = 100;

/// One past the last node of `id`'s subtree (nodes are in document order).
pub(super) fn subtree_end(dom: &Dom, id: u32) -> usize {
    let mut x = id;
    loop {
        let node = &dom.nodes[x as usize];
        if node.next != NONE {
            return node.next as usize;
        }
        if node.parent == NONE {
            return dom.nodes.len();
        }
        x = node.parent;
        if x == id {
            return dom.nodes.len();
        }
    }
}

fn subtree_text(dom: &Dom, id: u32) -> String {
    let mut out = String::new();
    let mut stack = vec![id];
    while let Some(x) = stack.pop() {
        let node = &dom.nodes[x as usize];
        if node.tag == Tag::Text {
            out.push_str(dom.node_text(x));
        }
        let start = stack.len();
        stack.extend(dom.children(x));
        stack[start..].reverse();
    }
    out
}

/// A block of teasers: several linked headings with little text each.
fn is_teaser_list(s: &Stat) -> bool {
    s.linked_headings >= 3 && s.len / s.linked_headings < 400
}

/// A byline or dateline: "By Jane Roe", "Published 12 March 2021, 10:48",
/// "Aktualisiert: 03.04.2020" (a short line that is a name after a byline
/// word, or a date with at most a few other words).
fn is_dateline(text: &str) -> bool {
    static RE: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (lead, date) = RE.get_or_init(|| {
        (
            Regex::new(
                r"(?i)^\s*(?:by|von|par|por|di|door|av|posted|published|updated|last updated|modified|written by|aktualisiert|veröffentlicht|erschienen|stand|geändert|publié|mis à jour|publicado|actualizado|pubblicato|aggiornato)\b",
            )
            .unwrap(),
            Regex::new(
                r"(?i)\b(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)?\d{2}|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2}|\d{1,2}\.? [a-zäéû]{3,10}\.? (?:19|20)\d{2}|[a-z]{3,9}\.? \d{1,2},? (?:19|20)\d{2}|\d{1,2}:\d{2})\b",
            )
            .unwrap(),
        )
    });
    let t = text.trim();
    // An attribution ("— Name (@handle) October 9, 2018") belongs to a quote.
    if t.is_empty() || t.len() >= 120 || t.starts_with(['—', '–', '-']) {
        return false;
    }
    if lead.is_match(t) && t.split_whitespace().count() <= 12 {
        return true;
    }
    if !date.is_match(t) {
        return false;
    }
    let rest = date.replace_all(t, " ");
    rest.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count()
        <= 1
}

/// A picture credit ("Titelbild: Name/Agentur", "(Credit: Name / Grist)",
/// "Crédits photos : …") or a view counter ("Aufrufe: 1120 | …") on a line of
/// its own.
fn is_credit_or_counter(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*\(?\s*(?:titelbild|beitragsbild|bild|bilder|bildquelle|bildnachweis|foto|fotos|fotoquelle|fotonachweis|photo|photos|photo credits?|credits?|image|image credits?|crédits? photos?|crédit photo|aufrufe|zugriffe|views)\s*:",
        )
        .unwrap()
    })
    .is_match(text)
}

/// A pointer to other pages on a line of its own, in several languages:
/// "Read more: <headline>", "Lesen Sie auch die folgenden Beiträge:",
/// "À lire aussi » …", "PUEDES VER: …", "Weiterlesen…".
fn is_see_also(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*(?:(?:read more|read also|also read|see also|auch lesen|lesen sie auch|lies auch|mehr zum thema|mehr themen|zum weiterlesen|weitere beiträge|weitere artikel|schon gelesen|das könnte (?:sie|dich) auch interessieren|à lire aussi|lire aussi|lisez aussi|voir aussi|leggi anche|lee también|lea también|vea también|mira también|ver también|puedes ver|(?:también )?(?:le|te) puede interesar|leia também|veja também|zie ook|lees ook|czytaj (?:też|także|również)|читайте также)\b|(?:weiterlesen|mire)\s*(?::|\.\.\.|…|$))",
        )
        .unwrap()
    })
    .is_match(text)
}

/// An appeal to the reader on a short line of its own, in several languages:
/// "Subscribe to our newsletter", "Never miss the latest news by signing up",
/// "If you enjoyed reading this post…", "Sie lesen gern …?", "Gefällt dir
/// unser Magazin?", "Folgen Sie uns", "Abonnez-vous", "Síguenos".
fn is_call_to_action(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*(?:subscribe to|sign up (?:for|to) (?:our|the) [^.]{0,40}newsletter|never miss|don'?t miss (?:out|a)|if you (?:enjoyed|liked) (?:this|reading)|enjoyed this (?:article|post)|follow us|join our newsletter|get our newsletter|receive our (?:\w+ )?newsletter|we want to hear what you think|abonnieren sie|jetzt abonnieren|newsletter abonnieren|melden sie sich (?:jetzt )?(?:für|zum) (?:unseren )?newsletter|folgen sie uns|folge uns|sie lesen gern|gefällt (?:dir|ihnen) (?:unser|dieser|der|das)|möchten sie (?:den|diesen) artikel teilen|abonnez-vous|inscrivez-vous à (?:notre|la) newsletter|suivez-nous|suscríbete|síguenos|únete|hazte (?:miembro|socio)|iscriviti alla newsletter|seguici|subscribe now|follow (?:\S+ ){1,4}on (?:twitter|facebook|instagram|linkedin|youtube|telegram|tiktok)|to (?:view|read|see|continue reading) the (?:full|rest of the|entire|whole) (?:story|article)|download (?:our|the) [^.]{0,40}\bapps?|submit your letter)\b",
        )
        .unwrap()
    })
    .is_match(text)
        || is_channel_plug(text)
}

/// A plug for the publisher's channel on a messaging or video platform,
/// anywhere on a short line: "¿Ya sabías que tenemos canal de Telegram?
/// Únete…", "¡Mira lo que tiene nuestro canal de YouTube!", "Join our
/// WhatsApp channel".
fn is_channel_plug(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:canal de (?:telegram|whatsapp|youtube)|(?:our|join) (?:\w+ )?(?:telegram|whatsapp|youtube) channel|(?:telegram|whatsapp|youtube)-kanal)\b",
        )
        .unwrap()
    })
    .is_match(text)
}

/// A publisher's notice on a line of its own: advertising disclosures
/// ("*Werbung. Dieser Beitrag enthält Werbung für …", "ANZEIGE - …",
/// "This post contains references to products from our advertisers"),
/// copyright and liability notices ("This article is the copyrighted
/// property of …", "… is not responsible for the opinions …", "Les articles
/// n'engagent que leurs auteurs") and paywall notes ("If you're already a
/// subscriber, log in").
fn is_notice(text: &str) -> bool {
    static RE: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (lead, anywhere) = RE.get_or_init(|| {
        (
            Regex::new(r"(?i)^\W{0,3}(?:werbung|anzeige|advertisement|sponsored)\s*[-–:|.]").unwrap(),
            Regex::new(
                r"(?i)\b(?:(?:beitrag|artikel|post|text) enthält (?:werbung|affiliate|werbelinks)|(?:post|article|page) (?:contains|may contain) (?:affiliate links|references to products|sponsored)|is the copyrighted property of|(?:is|are) not responsible for the (?:opinions|content)|n'engagent que leurs auteurs|(?:you['’]?re|you are) already a (?:subscriber|member))\b",
            )
            .unwrap(),
        )
    });
    lead.is_match(text) || anywhere.is_match(text)
}

/// Short standalone lines that are interface labels, not content.
fn is_label(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches(['-', '–', '|', '»', '›'])
        .trim_end_matches([':', '.', '…', '!', '?', '-', '–', '»', '›'])
        .trim()
        .to_lowercase();
    t.len() <= 60
        && matches!(
            t.as_str(),
            "advertisement"
                | "advertisements"
                | "advert"
                | "ad"
                | "ads"
                | "sponsored"
                | "sponsored content"
                | "tags"
                | "topics"
                | "read more"
                | "learn more"
                | "more"
                | "share"
                | "share this"
                | "share this article"
                | "share this story"
                | "comments"
                | "comment"
                | "related"
                | "related articles"
                | "related stories"
                | "related content"
                | "you may also like"
                | "recommended"
                | "most popular"
                | "most read"
                | "trending"
                | "subscribe"
                | "sign up"
                | "print"
                | "email"
                | "video"
                | "photo"
                | "image"
                | "continue reading"
                | "skip to content"
                | "loading"
                | "click here"
                | "back to top"
                | "see also"
                | "also read"
                | "read also"
                | "more from"
                | "next"
                | "previous"
                | "related posts"
                | "related coverage"
                | "more stories"
                | "like this"
                | "leave a comment"
                | "leave a reply"
                | "print this page"
                | "was this article helpful"
                | "share on facebook"
                | "share on twitter"
                | "tweet"
                // German
                | "anzeige"
                | "werbung"
                | "teilen"
                | "beitrag teilen"
                | "artikel teilen"
                | "jetzt teilen"
                | "gefällt mir"
                | "kommentare"
                | "kommentar"
                | "kommentieren"
                | "kommentar schreiben"
                | "kommentare schreiben"
                | "ähnliche beiträge"
                | "ähnliche artikel"
                | "verwandte artikel"
                | "mehr zum thema"
                | "weitere artikel"
                | "weitere beiträge"
                | "das könnte sie auch interessieren"
                | "das könnte dich auch interessieren"
                | "das könnte sie interessieren"
                | "das könnte dich interessieren"
                | "auch interessant"
                | "lesen sie auch"
                | "lies auch"
                | "weiterlesen"
                | "mehr lesen"
                | "drucken"
                | "artikel drucken"
                | "rezept drucken"
                | "nach oben"
                | "zurück"
                | "externer inhalt"
                | "aktuelle news"
                | "aktuelle nachrichten"
                | "empfehlungen"
                // French, Spanish, Italian
                | "partager"
                | "publicité"
                | "lire aussi"
                | "à lire aussi"
                | "sur le même sujet"
                | "articles similaires"
                | "commentaires"
                | "compartir"
                | "publicidad"
                | "noticias relacionadas"
                | "te puede interesar"
                | "lee también"
                | "comentarios"
                | "condividi"
                | "pubblicità"
                | "leggi anche"
                | "articoli correlati"
                | "commenti"
                // Labels left alone when what they label went
                | "kontakt"
                | "contact"
                | "von"
                | "autor"
                | "author"
                | "inhaltsverzeichnis"
                | "table of contents"
                | "weitere informationen"
                | "more information"
                // Headings of author boxes and comment counters left alone,
                // toggles and teasers' lead-ins
                | "über den autor"
                | "über die autorin"
                | "about the author"
                | "à propos de l'auteur"
                | "keine kommentare"
                | "no comments"
                | "kommentare insgesamt"
                | "last modified"
                | "mitglieder in diesem forum"
                | "le puede interesar"
                | "empfohlener redaktioneller inhalt"
                | "quellen ausblenden"
                | "bild anzeigen"
                | "lust auf mehr"
        )
}

/// Readability's conditional cleaning: lists, tables and divs full of links go.
fn drop_conditionally(dom: &Dom, st: &[Stat], id: usize, root: usize) -> bool {
    let node = &dom.nodes[id];
    let s = st[id];
    let list = matches!(node.tag, Tag::Ul | Tag::Ol | Tag::Dl);
    let candidate = list
        || matches!(
            node.tag,
            Tag::Div | Tag::Section | Tag::Table | Tag::Form | Tag::Figure | Tag::Center
        );
    if node.tag == Tag::Figure && s.len < 25 {
        return false;
    }
    if !candidate || node.body_hint {
        return false;
    }
    // A wrapper of (nearly) the whole chosen content is judged with it.
    if s.len * 5 >= st[root].len * 4 {
        return false;
    }
    let root_good = st[root].good;
    let w = class_weight(dom.class_id(id as u32));
    // A wrapper holding most of the content's paragraphs is the content,
    // whatever its class says (`widget-container`, `media-box`, …).
    let main_share = s.good >= 200 && s.good * 2 >= root_good;
    let prose = s.good >= 150 && s.good * 2 >= s.len;
    if w < 0 && !main_share && !prose {
        return true;
    }
    if s.commas >= 10 {
        return false;
    }
    let ld = if s.len > 0 {
        s.link_len as f32 / s.len as f32
    } else {
        0.0
    };
    if list {
        return ld > 0.5 || (s.len < 40 * s.li.max(1) && ld > 0.3);
    }
    (w < 25 && ld > 0.3 && s.len < 1000)
        || ld > 0.5
        || (!list && s.li > s.p.max(1) * 2 && ld > 0.2)
        || (s.len < 25 && ld > 0.0)
}

struct Writer {
    out: String,
    /// 0: nothing pending, 1: newline, 2: blank line.
    pending: u8,
    /// Open heading elements.
    in_heading: u32,
    /// Where the last heading with nothing after it yet starts in `out`.
    dangling_heading: Option<usize>,
}

impl Writer {
    fn brk(&mut self, level: u8) {
        self.pending = self.pending.max(level);
    }

    fn text(&mut self, t: &str) {
        if !t.trim().is_empty() {
            if self.in_heading > 0 {
                if self.dangling_heading.is_none() {
                    self.dangling_heading = Some(self.out.len());
                }
            } else {
                self.dangling_heading = None;
            }
        }
        if t.trim().is_empty() {
            if !t.is_empty()
                && !self.out.is_empty()
                && self.pending == 0
                && !self.out.ends_with(' ')
            {
                self.out.push(' ');
            }
            return;
        }
        if self.pending > 0 {
            while self.out.ends_with(' ') {
                self.out.pop();
            }
            if !self.out.is_empty() {
                self.out
                    .push_str(if self.pending >= 2 { "\n\n" } else { "\n" });
            }
            self.pending = 0;
            self.out.push_str(t.trim_start());
            return;
        }
        if self.out.ends_with(' ') || self.out.ends_with('\n') || self.out.is_empty() {
            self.out.push_str(t.trim_start());
        } else {
            self.out.push_str(t);
        }
    }
}

fn same_title(a: &str, title: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (a, t) = (norm(a), norm(title));
    !a.is_empty() && (t.contains(&a) || a.contains(&t))
}

fn render(dom: &Dom, pruned: &[bool], st: &[Stat], roots: &[u32], title: Option<&str>) -> String {
    let mut w = Writer {
        // The page's text bounds what is written, give or take the breaks
        // between blocks: one allocation instead of a doubling per power of two.
        out: String::with_capacity(dom.text.len() + dom.text.len() / 8),
        pending: 0,
        in_heading: 0,
        dangling_heading: None,
    };
    // (node, entering)
    let mut stack: Vec<(u32, bool)> = Vec::new();
    for &r in roots {
        stack.push((r, true));
        while let Some((id, enter)) = stack.pop() {
            let node = &dom.nodes[id as usize];
            if !enter {
                if node.tag.is_heading() {
                    w.in_heading -= 1;
                }
                if node.tag.is_block() {
                    w.brk(
                        if matches!(
                            node.tag,
                            Tag::Li | Tag::Td | Tag::Th | Tag::Dt | Tag::Dd | Tag::Tr
                        ) {
                            1
                        } else {
                            2
                        },
                    );
                }
                continue;
            }
            if pruned[id as usize] {
                continue;
            }
            match node.tag {
                Tag::Text => {
                    w.text(dom.node_text(id));
                    continue;
                }
                Tag::Br => {
                    w.brk(1);
                    continue;
                }
                // Form labels ("I agree…", "Rate this article") are interface.
                Tag::Hr | Tag::Img | Tag::Label => continue,
                _ => {}
            }
            if id != r && drop_conditionally(dom, st, id as usize, r as usize) {
                continue;
            }
            if node.tag.is_block() && st[id as usize].len <= 60 && is_label(&subtree_text(dom, id))
            {
                continue;
            }
            if node.tag.is_block()
                && !node.tag.is_heading()
                && !matches!(
                    node.tag,
                    Tag::Table | Tag::Tbody | Tag::Thead | Tag::Tr | Tag::Td | Tag::Th
                )
                && st[id as usize].len < 120
                && is_dateline(&subtree_text(dom, id))
            {
                continue;
            }
            if node.tag.is_block()
                && !node.tag.is_heading()
                && st[id as usize].len < 150
                && is_credit_or_counter(&subtree_text(dom, id))
            {
                continue;
            }
            if node.tag.is_block() && st[id as usize].len < 200 && {
                let text = subtree_text(dom, id);
                is_see_also(&text) || is_call_to_action(&text)
            } {
                continue;
            }
            if node.tag.is_block()
                && !node.tag.is_heading()
                && st[id as usize].len < 300
                && is_notice(&subtree_text(dom, id))
            {
                continue;
            }
            // A paragraph that is nothing but a link: a "read this too" line.
            if id != r && matches!(node.tag, Tag::P | Tag::H2 | Tag::H3 | Tag::H4) && {
                let s = st[id as usize];
                s.len > 0
                    && s.link_len * 10 >= s.len * 9
                    && s.len < 250
                    && !(node.tag == Tag::P && s.len < 40)
            } {
                continue;
            }
            if node.tag == Tag::H1 && title.is_some_and(|t| same_title(&subtree_text(dom, id), t)) {
                continue;
            }
            if node.tag.is_block() {
                w.brk(
                    if matches!(
                        node.tag,
                        Tag::Li | Tag::Td | Tag::Th | Tag::Dt | Tag::Dd | Tag::Tr
                    ) {
                        1
                    } else {
                        2
                    },
                );
            }
            if node.tag == Tag::Li {
                w.text("- ");
            }
            if node.tag.is_heading() {
                w.in_heading += 1;
            }
            stack.push((id, false));
            let start = stack.len();
            stack.extend(dom.children(id).map(|c| (c, true)));
            stack[start..].reverse();
        }
        w.brk(2);
    }
    let mut out = w.out;
    // A heading with nothing after it introduced something that is gone
    // (a "Related posts" block filled by scripts, a pruned comment list).
    if let Some(at) = w.dangling_heading {
        out.truncate(at);
    }
    while out.ends_with(char::is_whitespace) {
        out.pop();
    }
    out.shrink_to_fit();
    nfc(out)
}

/// Text in Unicode normalization form C (composed), as other extractors
/// and most references write it: one spelling per character, whatever the
/// page used (decomposed accents, Bengali nukta forms). A quick check
/// leaves already-composed text (nearly all of it) untouched.
fn nfc(text: String) -> String {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    if is_nfc_quick(text.chars()) == IsNormalized::Yes {
        return text;
    }
    text.nfc().collect()
}

/// All visible text of the page (no pruning), blocks separated by newlines.
pub fn visible_text(dom: &Dom) -> String {
    let n = dom.nodes.len();
    let mut pruned = vec![false; n];
    for i in 1..n {
        let node = &dom.nodes[i];
        pruned[i] = pruned[node.parent as usize]
            || (node.tag != Tag::Text
                && (node.hidden || matches!(node.tag, Tag::Head | Tag::Noscript)));
    }
    let mut w = Writer {
        out: String::with_capacity(dom.text.len() + dom.text.len() / 8),
        pending: 0,
        in_heading: 0,
        dangling_heading: None,
    };
    let mut stack: Vec<(u32, bool)> = vec![(0, true)];
    while let Some((id, enter)) = stack.pop() {
        let node = &dom.nodes[id as usize];
        if !enter {
            if node.tag.is_block() {
                w.brk(1);
            }
            continue;
        }
        if pruned[id as usize] {
            continue;
        }
        match node.tag {
            Tag::Text => w.text(dom.node_text(id)),
            Tag::Br => w.brk(1),
            _ => {
                if node.tag.is_block() {
                    w.brk(1);
                }
                stack.push((id, false));
                let start = stack.len();
                stack.extend(dom.children(id).map(|c| (c, true)));
                stack[start..].reverse();
            }
        }
    }
    let mut out = w.out;
    out.truncate(out.trim_end().len());
    out
}
