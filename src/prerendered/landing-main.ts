// Entry of the landing page's classic script (bundled by scripts/prerender.ts).
import { bootLanding } from './landing-boot.ts'

bootLanding()
