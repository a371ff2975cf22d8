//! Tests of `report/page.rs`.

use super::*;

#[test]
fn escapes_text() {
    let page = Page {
        title: "a < b & \"c\"".into(),
        metadata: vec![("command".into(), "<script>alert(1)</script>".into())],
        sections: vec![Section { title: "<b>".into(), body: vec![Block::Text("x<y".into())] }],
    };
    let html = render(&page);
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("a &lt; b &amp; &quot;c&quot;"));
    assert!(html.contains("x&lt;y"));
    assert!(!html.contains("<b>"));
}

#[test]
fn key_value_tables_wrap_and_do_not_scroll_sideways() {
    let rows = vec![("command".to_string(), Entry::Text("tune texel --data a.epd".into()))];
    let mut h = String::new();
    render_block(&mut h, &Block::KeyValue { caption: "run.json".into(), rows });
    assert!(h.starts_with("<table class=\"kv\">\n<caption>run.json</caption>\n"), "{h}");
    assert!(!h.contains("class=\"scroll\""));
    let css = CSS.replace(' ', "");
    assert!(css.contains("table.kvth,table.kvtd{text-align:left;white-space:normal;overflow-wrap:anywhere"));
}
