#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/entities.h>
#include <libxml/uri.h>
#include "alicia_xml.h"

_Static_assert(ALICIA_XML_RECOVER == XML_PARSE_RECOVER && ALICIA_XML_NOERROR == XML_PARSE_NOERROR &&
               ALICIA_XML_NOWARNING == XML_PARSE_NOWARNING && ALICIA_XML_NOBLANKS == XML_PARSE_NOBLANKS &&
               ALICIA_XML_NONET == XML_PARSE_NONET && ALICIA_XML_NOCDATA == XML_PARSE_NOCDATA &&
               ALICIA_XML_IGNORE_ENC == XML_PARSE_IGNORE_ENC,
               "alicia_xml.h's option values are libxml2's");
_Static_assert(ALICIA_XML_ELEMENT == XML_ELEMENT_NODE && ALICIA_XML_TEXT == XML_TEXT_NODE &&
               ALICIA_XML_CDATA == XML_CDATA_SECTION_NODE && ALICIA_XML_ENTITY_REF == XML_ENTITY_REF_NODE,
               "alicia_xml.h's node types are libxml2's");

/* The only options a caller may ask for; anything that could read a file or the network, or lift
 * libxml2's size and depth limits, is dropped (XML_PARSE_NOENT, _DTDLOAD, _DTDATTR, _DTDVALID,
 * _XINCLUDE, _HUGE), and XML_PARSE_NONET is always on. */
static const int allowed_options = XML_PARSE_RECOVER | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOBLANKS |
                                   XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_IGNORE_ENC;

/* Written once, in load(), under pthread_once; read only after it. */
static struct {
    void (*init_parser)(void);
    xmlParserCtxtPtr (*create_push)(xmlSAXHandlerPtr, void *, const char *, int, const char *);
    int (*reset_push)(xmlParserCtxtPtr, const char *, int, const char *, const char *);
    int (*use_options)(xmlParserCtxtPtr, int);
    int (*parse_chunk)(xmlParserCtxtPtr, const char *, int, int);
    void (*free_ctxt)(xmlParserCtxtPtr);
    void (*free_doc)(xmlDocPtr);
    void (*unlink_node)(xmlNodePtr);
    void (*free_node)(xmlNodePtr);
    xmlChar *(*build_uri)(const xmlChar *, const xmlChar *);
    xmlFreeFunc *free;
    htmlParserCtxtPtr (*html_new_ctxt)(void);
    htmlDocPtr (*html_ctxt_read_memory)(htmlParserCtxtPtr, const char *, int, const char *, const char *, int);
} api;
static const char *load_failure;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself.
 * Not RTLD_DEEPBIND (as libcurl is): libxml2 brings ICU, which is C++, and a deep-bound libstdc++
 * beside the Swift runtime's is a known source of two heaps. */
static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(why, sizeof why, "%s", dlerror());
        load_failure = why;
        return;
    }
#define ALICIA_LOOK(field, name) *(void **)(&api.field) = dlsym(library, name); if (!api.field) { snprintf(why, sizeof why, "libxml2.so.2 has no %s", name); load_failure = why; return; }
    ALICIA_LOOK(init_parser, "xmlInitParser")
    ALICIA_LOOK(create_push, "xmlCreatePushParserCtxt")
    ALICIA_LOOK(reset_push, "xmlCtxtResetPush")
    ALICIA_LOOK(use_options, "xmlCtxtUseOptions")
    ALICIA_LOOK(parse_chunk, "xmlParseChunk")
    ALICIA_LOOK(free_ctxt, "xmlFreeParserCtxt")
    ALICIA_LOOK(free_doc, "xmlFreeDoc")
    ALICIA_LOOK(unlink_node, "xmlUnlinkNode")
    ALICIA_LOOK(free_node, "xmlFreeNode")
    ALICIA_LOOK(build_uri, "xmlBuildURI")
    ALICIA_LOOK(free, "xmlFree")
    ALICIA_LOOK(html_new_ctxt, "htmlNewParserCtxt")
    ALICIA_LOOK(html_ctxt_read_memory, "htmlCtxtReadMemory")
#undef ALICIA_LOOK
    /* Once, before any parse: libxml2's global tables (and its thread-local set-up) made here,
     * so that parses on several threads later do not race to make them. */
    api.init_parser();
}

const char *alicia_xml_load(void) {
    pthread_once(&once, load);
    return load_failure;
}

struct alicia_xml_doc {
    xmlDocPtr doc;
    int errors;
    char first_error[200];
};

struct alicia_xml_parser {
    xmlParserCtxtPtr ctxt;
    struct alicia_xml_doc *result;
};

/* Why: libxml2 reports each error it recovers from here (XML_PARSE_NOERROR keeps it off stderr);
 * the document keeps a count and the first message, for the feed's warnings. */
static void on_error(void *user_data, xmlErrorPtr error) {
    xmlParserCtxtPtr ctxt = user_data;
    struct alicia_xml_doc *doc = ctxt ? ctxt->_private : NULL;
    if (!doc || !error) return;
    if (doc->errors++ == 0 && error->message) {
        snprintf(doc->first_error, sizeof doc->first_error, "line %d: %s", error->line, error->message);
        size_t length = strlen(doc->first_error);
        while (length > 0 && (doc->first_error[length - 1] == '\n' || doc->first_error[length - 1] == ' ')) {
            doc->first_error[--length] = 0;
        }
    }
}

alicia_xml_parser *alicia_xml_parser_new(const char *base_url, const char *encoding, int options) {
    if (alicia_xml_load()) return NULL;
    struct alicia_xml_parser *parser = calloc(1, sizeof *parser);
    if (!parser) return NULL;
    parser->result = calloc(1, sizeof *parser->result);
    parser->ctxt = parser->result ? api.create_push(NULL, NULL, NULL, 0, base_url) : NULL;
    if (!parser->ctxt) {
        free(parser->result);
        free(parser);
        return NULL;
    }
    if (encoding) api.reset_push(parser->ctxt, NULL, 0, base_url, encoding);
    api.use_options(parser->ctxt, (options & allowed_options) | XML_PARSE_NONET);
    parser->ctxt->_private = parser->result;
    parser->ctxt->sax->serror = on_error;
    return parser;
}

int alicia_xml_parser_push(alicia_xml_parser *parser, const char *bytes, int length, int last) {
    return api.parse_chunk(parser->ctxt, bytes, length, last);
}

/* The first element child of a document. */
static alicia_xml_node *root_of(const xmlDoc *doc) {
    for (xmlNodePtr node = doc ? doc->children : NULL; node; node = node->next) {
        if (node->type == XML_ELEMENT_NODE) return (alicia_xml_node *)node;
    }
    return NULL;
}

alicia_xml_node *alicia_xml_parser_root(const alicia_xml_parser *parser) { return root_of(parser->ctxt->myDoc); }

alicia_xml_node *alicia_xml_parser_open_element(const alicia_xml_parser *parser) {
    xmlNodePtr node = parser->ctxt->node;
    return node && node->type == XML_ELEMENT_NODE ? (alicia_xml_node *)node : NULL;
}

void alicia_xml_free_node(alicia_xml_node *n) {
    api.unlink_node((xmlNodePtr)n);
    api.free_node((xmlNodePtr)n);
}

alicia_xml_doc *alicia_xml_parser_finish(alicia_xml_parser *parser) {
    struct alicia_xml_doc *result = parser->result;
    result->doc = parser->ctxt->myDoc;
    parser->ctxt->myDoc = NULL;
    api.free_ctxt(parser->ctxt);
    free(parser);
    if (!result->doc) {
        free(result);
        return NULL;
    }
    return result;
}

alicia_xml_doc *alicia_html_read_memory(const char *bytes, int length, const char *base_url, const char *encoding) {
    if (alicia_xml_load()) return NULL;
    struct alicia_xml_doc *result = calloc(1, sizeof *result);
    htmlParserCtxtPtr ctxt = result ? api.html_new_ctxt() : NULL;
    if (!ctxt) {
        free(result);
        return NULL;
    }
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_NOBLANKS;
    result->doc = api.html_ctxt_read_memory(ctxt, bytes, length, base_url, encoding, options);
    api.free_ctxt(ctxt);
    if (!result->doc) {
        free(result);
        return NULL;
    }
    return result;
}

void alicia_xml_free_doc(alicia_xml_doc *doc) {
    if (!doc) return;
    api.free_doc(doc->doc);
    free(doc);
}

int alicia_xml_error_count(const alicia_xml_doc *doc) { return doc->errors; }
const char *alicia_xml_first_error(const alicia_xml_doc *doc) { return doc->errors ? doc->first_error : NULL; }

alicia_xml_node *alicia_xml_root(const alicia_xml_doc *doc) { return root_of(doc->doc); }

alicia_xml_node *alicia_xml_first_child(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    return node->type == XML_ELEMENT_NODE ? (alicia_xml_node *)node->children : NULL;
}

alicia_xml_node *alicia_xml_next_sibling(const alicia_xml_node *n) { return (alicia_xml_node *)((const xmlNode *)n)->next; }

alicia_xml_node *alicia_xml_parent(const alicia_xml_node *n) {
    const xmlNode *parent = ((const xmlNode *)n)->parent;
    return parent && parent->type == XML_ELEMENT_NODE ? (alicia_xml_node *)parent : NULL;
}

int alicia_xml_type(const alicia_xml_node *n) { return (int)((const xmlNode *)n)->type; }

const char *alicia_xml_name(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    return node->name ? (const char *)node->name : "";
}

const char *alicia_xml_namespace(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    return node->type == XML_ELEMENT_NODE && node->ns ? (const char *)node->ns->href : NULL;
}

const char *alicia_xml_prefix(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    return node->type == XML_ELEMENT_NODE && node->ns ? (const char *)node->ns->prefix : NULL;
}

const char *alicia_xml_text(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    return node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE ? (const char *)node->content : NULL;
}

alicia_xml_node *alicia_xml_entity_content(const alicia_xml_node *n) {
    const xmlNode *node = (const xmlNode *)n;
    if (node->type != XML_ENTITY_REF_NODE || !node->children || node->children->type != XML_ENTITY_DECL) return NULL;
    const xmlEntity *entity = (const xmlEntity *)node->children;
    return entity->etype == XML_INTERNAL_GENERAL_ENTITY ? (alicia_xml_node *)entity->children : NULL;
}

/* The text children of an attribute, joined; entity references among them left out. */
static char *attribute_text(const xmlAttr *attribute) {
    size_t length = 0;
    for (const xmlNode *child = attribute->children; child; child = child->next) {
        if (child->type == XML_TEXT_NODE && child->content) length += strlen((const char *)child->content);
    }
    char *value = malloc(length + 1);
    if (!value) return NULL;
    size_t at = 0;
    for (const xmlNode *child = attribute->children; child; child = child->next) {
        if (child->type != XML_TEXT_NODE || !child->content) continue;
        size_t part = strlen((const char *)child->content);
        memcpy(value + at, child->content, part);
        at += part;
    }
    value[at] = 0;
    return value;
}

char *alicia_xml_attribute(const alicia_xml_node *n, const char *name, int ignore_case) {
    const xmlNode *node = (const xmlNode *)n;
    if (node->type != XML_ELEMENT_NODE) return NULL;
    for (const xmlAttr *attribute = node->properties; attribute; attribute = attribute->next) {
        const char *own = (const char *)attribute->name;
        if (own && (ignore_case ? strcasecmp(own, name) : strcmp(own, name)) == 0) return attribute_text(attribute);
    }
    return NULL;
}

char *alicia_xml_attribute_ns(const alicia_xml_node *n, const char *namespace_uri, const char *name) {
    const xmlNode *node = (const xmlNode *)n;
    if (node->type != XML_ELEMENT_NODE) return NULL;
    for (const xmlAttr *attribute = node->properties; attribute; attribute = attribute->next) {
        if (!attribute->ns || !attribute->ns->href || !attribute->name) continue;
        if (strcmp((const char *)attribute->name, name) == 0 && strcmp((const char *)attribute->ns->href, namespace_uri) == 0) {
            return attribute_text(attribute);
        }
    }
    return NULL;
}

char *alicia_xml_attribute_at(const alicia_xml_node *n, int index, const char **name) {
    const xmlNode *node = (const xmlNode *)n;
    if (node->type != XML_ELEMENT_NODE) return NULL;
    const xmlAttr *attribute = node->properties;
    for (int at = 0; attribute && at < index; at++) attribute = attribute->next;
    if (!attribute) return NULL;
    *name = attribute->name ? (const char *)attribute->name : "";
    return attribute_text(attribute);
}

char *alicia_xml_build_uri(const char *relative, const char *base) {
    xmlChar *built = api.build_uri((const xmlChar *)relative, (const xmlChar *)base);
    if (!built) return NULL;
    char *copy = strdup((const char *)built);
    (*api.free)(built);
    return copy;
}

/* libxml2 stops at 256 levels (without XML_PARSE_HUGE, which is never passed); deeper nodes are
 * never built, so a fixed list of the xml:base attributes on the way up always suffices. */
enum { max_depth = 300 };

char *alicia_xml_base(const alicia_xml_node *n, const char *document_url) {
    char *bases[max_depth];
    int count = 0;
    for (const xmlNode *node = (const xmlNode *)n; node && node->type == XML_ELEMENT_NODE && count < max_depth;
         node = node->parent) {
        char *base = alicia_xml_attribute_ns((const alicia_xml_node *)node, (const char *)XML_XML_NAMESPACE, "base");
        if (base) bases[count++] = base;
    }
    char *current = strdup(document_url ? document_url : "");
    while (count > 0) {
        char *base = bases[--count];
        char *next = current ? alicia_xml_build_uri(base, current) : NULL;
        free(base);
        free(current);
        current = next;
    }
    return current;
}

void alicia_xml_free_string(char *string) { free(string); }
