#ifndef ALICIA_XML_H
#define ALICIA_XML_H

#include <stddef.h>

/* libxml2 is loaded on first use, never linked: Debian's libxml2.so.2 brings ICU (about 30 MiB of
 * data and code mapped, and its initialisers), which a player that only plays audio must not pay
 * for. Only this shim's .c file sees libxml2's headers; Swift sees the small opaque API below.
 * alicia_xml_load() says why libxml2 could not be loaded (NULL: loaded); every other function here
 * needs it to have succeeded. Nothing here ever reads a file or the network: the options that
 * would (entity substitution, DTD loading, XInclude) are refused by the readers. */
const char *alicia_xml_load(void);

/* A parsed document (the libxml2 tree plus what its parse reported). */
typedef struct alicia_xml_doc alicia_xml_doc;
/* A node of a document: an xmlNode, valid while its document lives. */
typedef struct alicia_xml_node alicia_xml_node;

/* libxml2's parser options that may be asked for (the same values as its xmlParserOption).
 * XML_PARSE_NOENT, _DTDLOAD, _DTDATTR, _DTDVALID, _XINCLUDE and _HUGE are never passed on, and
 * XML_PARSE_NONET is always added. */
enum {
    ALICIA_XML_RECOVER = 1 << 0,
    ALICIA_XML_NOERROR = 1 << 5,
    ALICIA_XML_NOWARNING = 1 << 6,
    ALICIA_XML_NOBLANKS = 1 << 8,
    ALICIA_XML_NONET = 1 << 11,
    ALICIA_XML_NOCDATA = 1 << 14,
    ALICIA_XML_IGNORE_ENC = 1 << 21,
};

/* Node types Swift tells apart (libxml2's xmlElementType values). */
enum {
    ALICIA_XML_ELEMENT = 1,
    ALICIA_XML_TEXT = 3,
    ALICIA_XML_CDATA = 4,
    ALICIA_XML_ENTITY_REF = 5,
};

/* A push parse: the bytes arrive in chunks (so that neither the caller nor libxml2 holds a second
 * copy of a large document), then finish() gives the document, or NULL when no tree was built.
 * `encoding` may be NULL (libxml2 then reads the BOM and the declaration). */
typedef struct alicia_xml_parser alicia_xml_parser;
alicia_xml_parser *alicia_xml_parser_new(const char *base_url, const char *encoding, int options);
/* 0 while the parse goes on; libxml2's error code once it has stopped (it then ignores more). */
int alicia_xml_parser_push(alicia_xml_parser *, const char *bytes, int length, int last);
/* While the parse goes on: the root element so far (NULL before it), and the element being built
 * (NULL when none is open). An element that is neither the open one nor one of its ancestors is
 * complete: libxml2 will not touch it again, and the caller may read it and free it. */
alicia_xml_node *alicia_xml_parser_root(const alicia_xml_parser *);
alicia_xml_node *alicia_xml_parser_open_element(const alicia_xml_parser *);
/* Ends the parse and frees the parser; the document is the caller's (alicia_xml_free_doc). */
alicia_xml_doc *alicia_xml_parser_finish(alicia_xml_parser *);

/* An HTML page (libxml2's HTML parser, in recovery mode, never touching the network), for finding
 * the feeds a page names. `encoding` may be NULL (the page's own <meta> then decides). */
alicia_xml_doc *alicia_html_read_memory(const char *bytes, int length, const char *base_url, const char *encoding);
void alicia_xml_free_doc(alicia_xml_doc *);
/* Unlinks a complete node from its document and frees it (and what is under it): how a large feed
 * is read item by item without its whole tree ever being built. */
void alicia_xml_free_node(alicia_xml_node *);

/* How many errors the parse recovered from, and the first one's message (NULL when none). */
int alicia_xml_error_count(const alicia_xml_doc *);
const char *alicia_xml_first_error(const alicia_xml_doc *);

alicia_xml_node *alicia_xml_root(const alicia_xml_doc *);
/* First child of an element (NULL for every other kind: an entity reference's content is reached
 * through alicia_xml_entity_content only, so that no walk follows it by accident). */
alicia_xml_node *alicia_xml_first_child(const alicia_xml_node *);
alicia_xml_node *alicia_xml_next_sibling(const alicia_xml_node *);
/* The parent element, NULL at the root (and for nodes of an entity's content). */
alicia_xml_node *alicia_xml_parent(const alicia_xml_node *);
int alicia_xml_type(const alicia_xml_node *);
/* An element's local name (no prefix); for an entity reference, the entity's name. */
const char *alicia_xml_name(const alicia_xml_node *);
/* An element's namespace URI, NULL when it has none. */
const char *alicia_xml_namespace(const alicia_xml_node *);
/* The prefix an element was written with, NULL when none. */
const char *alicia_xml_prefix(const alicia_xml_node *);
/* The characters of a text or CDATA node (NULL for other kinds): never an expansion. */
const char *alicia_xml_text(const alicia_xml_node *);
/* For an entity reference to an internal entity declared in the document: the first node of its
 * replacement (what libxml2 parsed once and shares between references). NULL otherwise, and for
 * external entities, which are never read. The caller bounds how much it walks. */
alicia_xml_node *alicia_xml_entity_content(const alicia_xml_node *);

/* An attribute's value by name (namespace ignored; `ignore_case` compares names ASCII
 * case-insensitively), or by namespace URI and name. Only the attribute's literal text is
 * returned: an entity reference inside an attribute is left out, never expanded. malloc'ed (free
 * with alicia_xml_free_string); NULL when the attribute is not there. */
char *alicia_xml_attribute(const alicia_xml_node *, const char *name, int ignore_case);
char *alicia_xml_attribute_ns(const alicia_xml_node *, const char *namespace_uri, const char *name);
/* The `index`th attribute (from 0): its value as above, its local name through `name`; NULL past
 * the last one. For writing an element back out (Atom's XHTML content). */
char *alicia_xml_attribute_at(const alicia_xml_node *, int index, const char **name);
/* The base URI in force at a node: `document_url` with every xml:base from the root down to the
 * node applied in turn (xmlBuildURI). malloc'ed; NULL when one of them does not combine. */
char *alicia_xml_base(const alicia_xml_node *, const char *document_url);
/* `relative` resolved against `base` (RFC 3986, xmlBuildURI). malloc'ed; NULL when either is not
 * a URI libxml2 can read. */
char *alicia_xml_build_uri(const char *relative, const char *base);
void alicia_xml_free_string(char *);

#endif
