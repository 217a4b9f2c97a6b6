"""The fact families of ``real`` and ``real2``: one request per family, worded so that a
careful person reading the page gives the benchmark's label, and the upstream collections.

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
RECIPE_REPO = Upstream(
    "hhursev/recipe-scrapers",
    "d08ddd0240ee0ff73dd9d705e43077a821944716",
    "MIT (the recipe-scrapers contributors): labels; the page is a third-party capture",
)
UPSTREAMS = (PRODUCT_REPO, ARTICLE_REPO, RECIPE_REPO)


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
        Family(
            "recipe_title",
            "The name of the recipe on this page, as the recipe itself gives it (not the "
            "browser tab title with the site's name added).",
        ),
        Family(
            "recipe_author",
            "The author of the recipe, as the page credits them (a person, or the site or "
            "brand when the recipe credits no person).",
        ),
        Family(
            "recipe_ingredients",
            "Every ingredient line of the recipe, in the order the recipe lists them, one "
            "string per line as written (quantity, unit and notes included; no group headings).",
        ),
        Family(
            "recipe_instructions",
            "Every step of the recipe's method, in order, one string per step as written "
            "(without step numbers or section headings).",
        ),
        Family(
            "recipe_yields",
            "How many servings the recipe makes, as a number.",
        ),
        Family(
            "recipe_total_time",
            "The recipe's total time (as the recipe states it: preparation and cooking "
            "together, waiting included) in minutes, as a number.",
        ),
        Family(
            "recipe_rating",
            "The recipe's average user rating as the page gives it (the mean score of its "
            "reviews, on the page's own scale), as a number.",
        ),
        Family(
            "recipe_card",
            "The recipe's card as one JSON object with four keys: \"title\" (the recipe's "
            'name), "author" (as the page credits them), "total_minutes" (the total time '
            'the recipe states, in minutes, as a number) and "rating" (the average user '
            "rating as the page gives it, as a number).",
        ),
    )
}
