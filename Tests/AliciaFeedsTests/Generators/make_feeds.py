#!/usr/bin/env python3
"""Writes podcast feeds made by real feed generators from PyPI into the directory given as the
only argument, for GeneratorFeedTests: feedgen (RSS 2.0 and Atom, with its podcast extension),
podgen, PyRSS2Gen (which writes ISO-8859-1 by default) and rfeed (with its iTunes extension).

Every generator gets the same three episodes (EPISODES below); the Swift test checks what it reads
against the same values. A generator that is not installed makes the script exit with status 3
and its name on standard error, so that the test can tell a missing package from a broken one.

The test command installs the generators into .build/python with pip --target and passes that
directory as ALICIA_TEST_PYTHONPATH (see GeneratorFeedTests.swift for the pip line).
"""
import datetime
import os
import sys

UTC = datetime.timezone.utc
SHOW = {
    "title": "Alicia's Generated Show",
    "link": "https://example.com/show",
    "description": "A show written by a generator.",
}
# title, guid, enclosure URL, length, MIME type, duration (seconds), publication date
EPISODES = [
    ("Episode 1: Café & Q&A <live>", "urn:alicia:ep1", "https://media.example.com/ep1.mp3", 12345678, "audio/mpeg", 3723,
     datetime.datetime(2024, 1, 5, 10, 0, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))),
    ("Episode 2 — Über", "urn:alicia:ep2", "https://media.example.com/ep2.m4a", 2345, "audio/x-m4a", 59,
     datetime.datetime(2024, 2, 29, 23, 59, 59, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))),
    ("Episode 3 ‘quotes’ & “more”", "https://example.com/ep3", "https://media.example.com/ep3.ogg", 99, "audio/ogg", 36000,
     datetime.datetime(2023, 12, 31, 0, 0, 0, tzinfo=UTC)),
]


def hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def missing(name):
    sys.stderr.write("missing python package: %s\n" % name)
    sys.exit(3)


def feedgen_feeds(directory):
    try:
        from feedgen.feed import FeedGenerator
    except ImportError:
        missing("feedgen")
    generator = FeedGenerator()
    generator.load_extension("podcast")
    generator.id(SHOW["link"])
    generator.title(SHOW["title"])
    generator.link(href=SHOW["link"], rel="alternate")
    generator.description(SHOW["description"])
    generator.subtitle(SHOW["description"])
    generator.language("en")
    generator.podcast.itunes_author("Alicia")
    # feedgen lists entries newest first unless told otherwise; keep the order given.
    for title, guid, url, length, mime, duration, date in EPISODES:
        entry = generator.add_entry(order="append")
        entry.id(guid)
        entry.guid(guid, permalink=guid.startswith("http"))
        entry.title(title)
        entry.description("Notes for " + title)
        entry.enclosure(url, str(length), mime)
        entry.link(href=url, rel="enclosure", type=mime, length=str(length))
        entry.published(date)
        entry.updated(date)
        entry.podcast.itunes_duration(duration)
    generator.rss_file(os.path.join(directory, "feedgen-rss.xml"), pretty=True)
    generator.atom_file(os.path.join(directory, "feedgen-atom.xml"), pretty=True)


def podgen_feed(directory):
    try:
        import podgen
    except ImportError:
        missing("podgen")
    podcast = podgen.Podcast(name=SHOW["title"], description=SHOW["description"], website=SHOW["link"], explicit=False)
    podcast.language = "en"
    for title, guid, url, length, mime, duration, date in EPISODES:
        episode = podcast.add_episode()
        episode.id = guid
        episode.title = title
        episode.summary = "Notes for " + title
        episode.media = podgen.Media(url, size=length, type=mime, duration=datetime.timedelta(seconds=duration))
        episode.publication_date = date
    podcast.rss_file(os.path.join(directory, "podgen.xml"))


def pyrss2gen_feed(directory):
    try:
        import PyRSS2Gen
    except ImportError:
        missing("PyRSS2Gen")
    items = [
        PyRSS2Gen.RSSItem(title=title, link=url, description="Notes for " + title,
                          guid=PyRSS2Gen.Guid(guid, isPermaLink=guid.startswith("http")),
                          pubDate=date.astimezone(UTC).replace(tzinfo=None),
                          enclosure=PyRSS2Gen.Enclosure(url, length, mime))
        for title, guid, url, length, mime, duration, date in EPISODES
    ]
    rss = PyRSS2Gen.RSS2(title=SHOW["title"], link=SHOW["link"], description=SHOW["description"],
                         lastBuildDate=datetime.datetime(2024, 3, 1, 12, 0, 0), items=items)
    # PyRSS2Gen's default: ISO-8859-1, declared, with what Latin-1 lacks as character references.
    with open(os.path.join(directory, "pyrss2gen.xml"), "w", encoding="iso-8859-1", errors="xmlcharrefreplace") as out:
        rss.write_xml(out)


def rfeed_feed(directory):
    try:
        import rfeed
    except ImportError:
        missing("rfeed")
    items = [
        rfeed.Item(title=title, link=url, description="Notes for " + title,
                   guid=rfeed.Guid(guid, isPermaLink=guid.startswith("http")), pubDate=date,
                   enclosure=rfeed.Enclosure(url=url, length=length, type=mime),
                   extensions=[rfeed.iTunesItem(duration=hms(duration))])
        for title, guid, url, length, mime, duration, date in EPISODES
    ]
    feed = rfeed.Feed(title=SHOW["title"], link=SHOW["link"], description=SHOW["description"], language="en",
                      items=items, extensions=[rfeed.iTunes(author="Alicia")])
    with open(os.path.join(directory, "rfeed.xml"), "w", encoding="utf-8") as out:
        out.write(feed.rss())


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.stderr.write("usage: make_feeds.py DIRECTORY\n")
        sys.exit(2)
    for make in (feedgen_feeds, podgen_feed, pyrss2gen_feed, rfeed_feed):
        make(sys.argv[1])
    print(" ".join(sorted(os.listdir(sys.argv[1]))))


if __name__ == "__main__":
    main()
