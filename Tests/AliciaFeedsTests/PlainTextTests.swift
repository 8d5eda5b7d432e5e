@testable import AliciaFeeds
import Testing

/// HTML to the words a terminal shows.
@Suite struct PlainTextTests {
    @Test(arguments: [
        ("<p>Hello <b>world</b></p>", "Hello world"),
        ("<p>One</p><p>Two</p>", "One Two"),
        ("Line<br>break<br/>here", "Line break here"),
        ("Caf<b>é</b> au lait", "Café au lait"),
        ("  lots \n\n of \t space  ", "lots of space"),
        ("a < b and c > d", "a < b and c > d"),
        ("I <3 podcasts", "I <3 podcasts"),
        ("Q&A &amp; more", "Q&A & more"),
        ("&nbsp;&nbsp;padded&nbsp;", "padded"),
        ("caf&eacute; &#8212; &#x2014; &hellip;", "café — — …"),
        ("&bogus; &amp", "&bogus; &amp"),
        ("<script>alert('x')</script>Shown<style>p{}</style>", "Shown"),
        ("<SCRIPT type=\"text/javascript\">if (a < b) {}</SCRIPT>after", "after"),
        ("<!-- comment <b>x</b> -->visible", "visible"),
        ("before</script>after</style>end", "before after end"),
        ("<o:p>Word</o:p> <scriptx>kept</scriptx>", "Word <scriptx>kept</scriptx>"),
        ("<a href=\"x\" title=\"a > b\">link</a>", "link"),
        ("<img src=\"x.png\" alt=\"pic\">caption", "caption"),
        ("<ul><li>one</li><li>two</li></ul>", "one two"),
        ("unclosed <b", "unclosed"),
        ("", ""),
    ])
    func html(_ html: String, _ expected: String) {
        #expect(PlainText.from(html: html) == expected)
    }
}
