const CRAWLER =
  /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|lighthouse|headlesschrome\/.*pagespeed/i

/** Error pages are not rendered for crawlers: they get an empty page rather than an error to index. */
export function isCrawler(userAgent: string = navigator.userAgent): boolean {
  return CRAWLER.test(userAgent)
}
