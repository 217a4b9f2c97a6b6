"""The fact families of ``real``: one request per family, worded so that a careful person
reading the page gives the benchmark's label, and the two upstream collections.

The requests are the same for every row of a family (no row's answer can hide in its
request), and the prompt shows a neutral URL (real URLs often hold the SKU or the date).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Upstream:
    """A public collection of labelled pages at a pinned commit."""

    repo: str
    commit: str
    license: str


PRODUCT_REPO = Upstream(
    "scrapinghub/product-extraction-benchmark",
    "cba97d7a8d42aeefd4021bc15d482f297faceaa3",
    "MIT (Zyte 2021): labels; the page is a third-party capture",
)
ARTICLE_REPO = Upstream(
    "adbar/trafilatura",
    "e90b0ef51ab026fdb905fb6c5b3c84dd3d784fd5",
    "Apache-2.0: labels; the page is a third-party capture",
)
UPSTREAMS = (PRODUCT_REPO, ARTICLE_REPO)


@dataclass(frozen=True)
class Family:
    """One kind of fact: the request every row of it gets."""

    name: str
    request: str


FAMILIES = {
    family.name: family
    for family in (
        Family(
            "product_price",
            "The current price of the main product on this page: what a buyer pays for one "
            "unit now (the sale price when the page shows a reduction, not the crossed-out "
            "former price; no shipping). Give the number only, without the currency.",
        ),
        Family(
            "product_sku",
            "The main product's SKU: the seller's own code for this product, the one the page "
            "calls SKU, item number, article number or product code (on Amazon, the ASIN). "
            "Not a barcode number (GTIN, EAN, UPC).",
        ),
        Family(
            "product_brand",
            "The brand of the main product on this page (the maker's brand name, not the "
            "shop's name, unless the shop sells its own brand).",
        ),
        Family(
            "product_gtin",
            "The main product's barcode number (GTIN, EAN or UPC) as the page gives it, "
            "digits only.",
        ),
        Family(
            "article_title",
            "The headline of the article on this page, as printed above the article (not the "
            "browser tab title with the site's name added).",
        ),
        Family(
            "article_author",
            "The author of the article, as the byline names them (several authors as the page "
            "writes them together).",
        ),
        Family(
            "article_date",
            "The date the article was first published (not a later update), as an ISO date "
            "YYYY-MM-DD.",
        ),
    )
}
