/**
 * GIF and WebP keep their transparency (decoded to RGBA by omggif and libwebp, embedded through jsPDF's PNG path
 * with a soft mask), an animated GIF or WebP shows its first frame, and the pixel limit is checked from the header
 * before anything is decoded. Fixtures were made once with ImageMagick 6.9 (libwebp 1.2.4); the tests do not need it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import type { ImageRun } from '../../../server/engine/model/types.js';
import { EngineError } from '../../../server/engine/errors.js';
import { decodeGifFirstFrame } from '../../../server/engine/images/gif.js';
import { decodeWebp, largestWebpFrame } from '../../../server/engine/images/webp.js';
import { DEFAULT_MAX_IMAGE_PIXELS, prepareImage, setMaxImagePixels } from '../../../server/engine/pdf/images.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { assertValidPdf, countPixels, model, near, para, raster, render, structure } from './helpers.js';
import { encodePng } from './png.js';

/** 20 × 10: left half opaque green (0,170,0), right half transparent. */
const GIF_HALF = 'data:image/gif;base64,R0lGODlhFAAKAPAAAACqAAAAACH5BAEAAAEALAAAAAAUAAoAAAIZhI+hy+jAYnhJLnrsxVBP7n1YyHVaSYJeAQA7';
/** 20 × 10 lossless WebP (VP8L with alpha): left half opaque blue, right half transparent. */
const WEBP_LOSSLESS_HALF = 'data:image/webp;base64,UklGRiYAAABXRUJQVlA4TBkAAAAvE0ACEA8QMf/zHwwyAYuN/pndGkT0P1YuAA==';
/** 20 × 10 lossy WebP with an alpha channel (VP8X + ALPH + VP8): left half opaque blue, right half transparent. */
const WEBP_LOSSY_HALF = 'data:image/webp;base64,UklGRowAAABXRUJQVlA4WAoAAAAQAAAAEwAACQAAQUxQSBQAAAABDzD/ERGCTMBio39mtwYR/Y+VC1ZQOCBSAAAAsAMAnQEqFAAKAD4xFIhCoiEhGAQAIAMEoAnTKESAMwAyQAEBZAAA/v1dz//wsz5j/zymcm3rJf/D/vjL/nlM5NvWS/+vB6enq4anv+CEkm8AAA==';
/** Animated 20 × 10 GIF: frame 1 red, frame 2 blue. */
const GIF_ANIMATED = 'data:image/gif;base64,R0lGODlhFAAKAPAAAP8AAAAAACH5BAAKAAAAIf8LTkVUU0NBUEUyLjADAQAAACwAAAAAFAAKAAACDISPqcvtD6OctNrrCgAh+QQACgAAACwAAAAAFAAKAIAAAP8AAAACDISPqcvtD6OctNrrCgA7';
/** Animated 20 × 10 WebP: frame 1 red, frame 2 blue. */
const WEBP_ANIMATED = 'data:image/webp;base64,UklGRtQAAABXRUJQVlA4WAoAAAACAAAAEwAACQAAQU5JTQYAAAD/////AABBTk1GVAAAAAAAAAAAABMAAAkAAGQAAAJWUDggPAAAABADAJ0BKhQACgA+kTiXR6WjIiEwCACwEglAF2XQABA2AAD+7qY//gN18W0y//c4H/c4H/c4H8czWYAAAEFOTUZMAAAAAAAAAAAAEwAACQAAZAAAAFZQOCA0AAAAVAIAnQEqFAAKAD6ROJdHgwCAAAEglAF2AFpIAP71WL//c4H/+zgf/7OB/HX9eqWuTfJsAFJJRkZIAAAAV0VCUFZQOCA8AAAAEAMAnQEqFAAKAD6ROJdHpaMiITAIALASCUAXZdAAEDYAAP7upj/+A3XxbTL/9zgf9zgf9zgfxzNZgAAA';
/** 20 × 10 screen holding one 6 × 4 red frame at (12, 4): the rest of the screen is transparent. */
const GIF_OFFSET_FRAME = 'data:image/gif;base64,R0lGODlhFAAKAPAAAP8AAAAAACH5BAAAAAAALAwABAAGAAQAAAIEhI+pVwA7';
/**
 * 80 × 80 interlaced GIF, 256 colours, pixel (x, y) = PATTERN(x, y): long enough for the LZW dictionary to fill
 * (12-bit codes, clear codes).
 */
const GIF_PATTERN = 'data:image/gif;base64,R0lGODlhUABQAPcAAKtUAaxTBK1SB65RCq9QDbBPELFOE7JNFrNMGbRLHLVKH7ZJIrdIJbhHKLlGK7pFLrtEMbxDNL1CN75BOr9APcA/QME+Q8I9RsM8ScQ7TMU6T8Y5Usc4Vcg3WMk2W8o1Xss0YcwzZM0yZ84xas8wbdAvcNEuc9ItdtMsedQrfNUqf1apAleoBVinCFmmC1qlDlukEVyjFF2iF16hGl+gHWCfIGGeI2KdJmOcKWSbLGWaL2aZMmeYNWiXOGmWO2qVPgD/AAH+AwL9BgP8CQT7DAX6Dwb5Egf4FQj3GAn2Gwr1Hgv0IQzzJA3yJw7xKg/wLRDvMBHuMxLtNhPsORTrPBXqP2uUQWyTRG2SR26RSm+QTXCPUHGOU3KNVnOMWXSLXHWKX3aJYneIZXiHaHmGa3qFbnuEcXyDdH2Cd36Ben+AfRbpQhfoRRjnSBnmSxrlThvkURzjVB3iVx7hWh/gXSDfYCHeYyLdZiPcaSTbbCXabybZcifYdSjXeCnWeyrVftYpgtcohdgniNkmi9oljtskkdwjlN0il94hmt8gneAfoOEeo+IdpuMcqeQbrOUar+YZsucYtegXuOkWu+oVvoB/gIF+g4J9hoN8iYR7jIV6j4Z5kod4lYh3mIl2m4p1not0oYxzpI1yp45xqo9wrZBvsJFus5JttpNsuZRrvJVqv+sUwewTxO0Sx+4Ryu8QzfAP0PEO0/IN1vMM2fQL3PUK3/YJ4vcI5fgH6PkG6/oF7vsE8fwD9P0C9/4B+v8A/ZZpwpdoxZhnyJlmy5plzptk0Zxj1J1i155h2p9g3aBf4KFe46Jd5qNc6aRb7KVa76ZZ8qdY9ahX+KlW+6pV/ivUgSzThC3Shy7Rii/QjTDPkDHOkzLNljPMmTTLnDXKnzbJojfIpTjHqDnGqzrFrjvEsTzDtD3Ctz7Buj/AvUC/wEG+w0K9xkO8yUS7zEW6z0a50ke41Ui32Em220q13ku04Uyz5E2y506x6k+w7VCv8FGu81Kt9lOs+VSr/FWq/yH5BAAAAAAALAAAAABQAFAAQAj+AIEccVIlDp4/28Slg3fPH4wbPraISaMpFCpiy6QRWCAhA4gTgxRFclWL1xAlUdrQ2XPNWzl28/SxmKHjipcyljqRAnbMGYADDipwGKHCUCNKsXD9MtKECpw7fnpsGVOpUylhyqQVaFChQwlBiiTBwgUECZQ2dfpoE6dOnr4WNaRStYpVK1evYMWSNYtWLVu3cOVWvZp1a9evikoMYrSKVi8jT9rY+dPN3Dt8LGr46GImkyhgyaQZeIAhhApEkWDlErKEipw92cSto9cvho4sYip5OlXMmYAFFDqYINSIVS1fR6C4uVPN2zl4+VrY+OHljKZRwcSxs7eixo8vaTr+nTIGrcCDDCMEMWJlC4gSKnP6cDMHT9+LHFnGXAoFTBm1BBN0cIIhkMCiCxFOtHGHNeCoQ48/M/TQxRmblEKMMwM0cEEIgChCCS2+ICFFHHtoQ447+CgDwAIWhBAII63gMoQTbuSRDTnv6APDDlycwckpx0iDwAQepJAIJbUAscQadlgTDjv3tIBDFmRkQgoxzxQAwQYmGBKJLL0gMcUcfniTDj3/1GBFGJaEEgwzAjSAwQiDOPKKLkUgQUUd1ojjjj4x9PBFJaEI40wBEXSQgiKs4EIEFHH04Y069rSQwxZndJKKMgE0kEEJhkhCCxBMtJGHNubI408NV4yRSSn+xkiTQAUhCOIILLzoyaefgApKqKGIboHGJ8E4Y8AEIAjyiCy/MOHGHt2oc88LPHxhySjFSKPABSQYMoktQ0Ahxx/huLPPDFaMockpyQTgwAYoKNKKLkdQYQc25cjzzw1anOEJMM0UIMEHgTgSiy9LtKEHN+nY48IOXggCCS1CQDGHNeTIs0IOXVQyijHUNLBBCozA4gsTb/QBjjv81JDFGZ8IA00CF5SACCu6ILFGHtyog08MP4yxSSrMFDBBCIRIYgsRUtSBjTn0tLDDF5eUgkwAD3QAiCOyAOFEHH+ok88MWJwBCjHTNMABII/QMoQUdmiTDj4yXGHGJ8NIw8D+Bio4MosQUdSRDTr3xGBFGZ4IE80CGqTQiCxBQEEHNufYA8MPZHQSDDQKZIACI7EA8cQc15hTzws+jMEJMM8kgMEJi0jTQAeCSIILEm30IY48LfQwRifCyE677bjrzrvvwAtf++25797778HPvnzxziMf/fDMG/888C61Qw8/LtgglRhqbDKKKj0FgAAEF3xgQkiSvHKLL0wVlEc13ZAD0z5w8aBFGBQRRSqM0YyfPMACHvhKIkZii14UgQlOOQg3xrEOt7CABjvIAhjQkAlj+EYBE9gACQIRllisRglTgEMerPGN52CGBlIhgyU+wZtmBCABEtDACACxwLEEIQn+UngDHppjmXusYAb+o4onTEEMZgAAARHIgAhOAwn5lSUKy6FMOYjQBDbUgTLP0YcLcHCFMKhhN8Z4BgE0BILTSCIWu0AQGybjnHjYBwdYCINuUEEeAjhgQypIhCRksYsiJMgOzUFHPPZxHyzk5hOoOEZ5HFAaHk5CFmW0BCj6AwAFVOADgfzQL5IAHz90Ax3y6IcMJISGHxkjGgaIAJcKUaBCQuENeriRO/LhAvyQAROjEEYz4nQBEbyIFbcIAhOYVI0G1SNNPwCDGj6RimRMw0irsIUQmlAjbZQjHvyYgQ/AQKhgNGMAD9BAlyQxi18ogUnX8FM+dtQFNHhiUwD+YMAF6PQIXB1hTH/4xjoqhQMtlGETpghSAigAAkDAKBePggMfuIGOeaQpVf+wQRbKwAlUcMoBGjgBIlZxi0fJwQ/gYMc8BWUJURADGgigQK0ecTAlsAEPqLLoDbJgBk5sSgDvOkEiVuGoKIwLHO3IR6DAcC1iRAMBtBrEshDGBmPJlBCRqEXF5FANccCjHxr1V7EOQAERJK0W4ZpDNcYBD3/YoF/EesYBKiCCQihtCFG42Dji4Q9+DUsYz4DqCArxLSJEgQ4Yi8e+hAUKmSHAAiNAmR/C0VYccMFjxwBA1gLRNsBNznQu6EEYNIGKopXVEJTIxRF21o116INsd1P+XOdg94qTwcEPXv0HDjpGimNgzQOBmBhenXaO0/VADJr4AiZKewALmEARsPjF6ChXOLudjRoO8EDtbrHaPXzjHf7IgRcwcQpmGMACJVDEK37hBNJVznB3Q5sDaBeJWxhhDXr4hjv8gQMvXOIUyzBABUqQiNo6QQ6lMwQretGEOWAjHfmowRYsYQpmHAADKHAELYpQhT2AIx4s8J0nhkGNB4CgEKzgRRPkgA105IMGW6iEKZZxgAugoBG0IEIV9AAOeLCAB78bxjQe8IFCrIIXTEAwOvBBAy1UohQBvsAJGjGLN9ihD9kIBzreYQ+HQIQLYyjf+Qj4k6B0gASAOMT+I1gxC10IIQlQYMNKWmIO7+3DBTXgQRbCwEFQXCQjBWDABDQgghQUghFIUcpA7FeNCVYwHyvAxz9koAMsfOEMmbBIMQp4gAe0732LmMRYyvIEOfMBG+BAB0MmXZNLZ8LPm6ZGpy/gAVDrRSClXgmqt3yPSefgCpfGBKyZIetL0JAYBVxfBkKQAkM8ohW1eIwT1jAHPmQ5HYDRDBdkeGwnrq80zXYEtB047TnAJhzpsGNgtm2J3TSRGt8GQbiN48AmLGACHFDMIigxC15wcQ104IM2xsEO2tgmj2qwyjC8HQEd8vCNq2lNHPSADXTLg5E3sMIX0HCdYGRlNBiQ9yH+IOGKWwAhCVEQojWcA53M+IDfvChCZOj4HF5mHDycKMUwbAhC4RCnFbb4hYhUeI1wqGMe/LANbmbIR2is0QIiL1DEq1BtE7XDHv+AIRfK4BnQTOMAEMhAtbdRjsu04AZXkKYnmm4eDBhz3yBCQhTgkEvtcIcGPvACGip0IQEwAOopQMQgC/mE5TDo6KrkwRa4jp1ldDJAA3rEK3IxhGXWIek72IIZNEGKYWBIQ2/PpnuoQAdTnkMemOfC5q/0ebcHYhHscU8VSn9K1MeAB6rXhIUwREljrqc9S5h9mVDJDxng3gwVKgY0DLClLkEiFrw4QhTiMFFzgNP49RRPkBD+IIEOoEDws/BFEsY0/Hn4A+9fmGY1qaEACoDSQ0kKfh2aqY56rMAGa2oTMJYRgL+7KJ0lUAhfEiakF1ADxQI7VSWkoHyx5H2IMAnxtwZ3EE9J9QI6gCk/cgzTsFAfAAiwdwsz0k3lAA/7sEpekAafoAoqok8iYCt3UgTTN1GukAswKAeSQiksUFDIdwrIwH4WIAJ1gitiQgfV8CT48AI8Yk8q2CkZQAICGH7vNIHj8A77ECiDAgrmRAAPsAEiBYFB0ASmgirx0A80sCaXMAp3gA3k8FVlKAavEisK8IODAAmy4As2hQfZkC+rcgVkoAkJRQ0LsE9P2CxheA4WpVH+B8Uu+YQBoCIqX+gGC4MO9LACOuhTnNIA6nQIk7AC/OIvqsAMBJAoKsAIr7ALSFAFaZgvGcVTmrIMAwABHJACi+AK9GIv10AOfFUDWMBRHiUAWxgvrZALRjAFfMJWZMiHm8Au7hJSidAoRSAFRCgO70AsVhUCc0gLQeAEt4VUr5UupKUMvtgBo/gKvWBTPNMwLlAt12IM07AAGGACI4ULw1gH16CKNyAscUVWSBMJ2PgEcYBS5oIuZLAJHoUsg5BVFaNXioUDW5AGoeBUCvCON5MzVYAH29AwLyBamGAKyRCOWxMLv9AEcKAyLEMDWGAG/+IMc1VXk1BSTYMv88D+AjrQMR8zDQygAfHiCrzQNV+zVorFMZgFAA6wNlwjOlw1DhrDMZbQW5qlNX4TBE8gBxijMTrgBUt5NZv1CLMQORdDDjFZlVVzNRAAXJ1lMfUYk3vgDe3AD2+VBqIAMvPFWW7TNINzD5eTOazjOs9VW0wAB3+wVyugA1RjCspAABIQAoVACbiwWnrQDeywDy6DBqFQDGlDlH9zWJRjD6ijOqrgDAiwmZywOZ3jOJATOINDN9aFNrMTXLVQBFSAB9zwmDWgBWowCr4VASBACJOQC0jABh4GXv11CYRZABQwAofQCrywBG/wl/LwY6OVCp55ASawCNHlBLYpABIgAgr+hmRwUA3lcDo/UAZ4Mw3ZNT1swAfhEA8rsANhsAmq8AwK0DgaRgRTgAfdsJY30AXCGWDoBV2iQwfZMDczkAVueQzYGQLbuQTdWQ708AI/IGWMIAtDUJ/dsF858AWa8J4KsAGAAAm2cATnGQ7HMwYjRp4fQAiUoAsK6p32EANXcAaiYKASMAKI4Aq+8AQAmg76IGEyxp8nEKFCQKHtEF5fkAkaqgG2YARs0AfjMA8vYAVnEArHMAAUQAKKEAtCIAV44A3v8A87IAbAM2QntmDtlQ3qsA820AWYAJ0bGgiRgAtJsJzlYA8ygAVpQArKUAAWMGWzoGMeFg8t4ANk8An+xRAAESACiLBeUGAHTfEUfqANWsYQXhYR5LMJAlQMzDANW0EBG1BohzYJSbEUjXoHCKEQkgoDOPADYFY+AkRA1GAADcCpU2QUibYUBGEQpZoOp9ZC7lAP/fACEDEVYoY+PoEAB5RAgpAIJFcSRLAEU2Blj4pu8CBpMZADVtAFOOEJpRAMyQANAqAAUfQRhLAIYnELoloQQ8QN5FBBMjEDO4AF7HpBegZAmtCqxco+7jMI5DoWvzAQ1KYH1/AN5tCr/fAQP9AFMkQXyRANGzFos+oIbLYLQqAEUuAGdvCoChEPkOauWAAGmKZpBoutxnYKGDENBuAACPQ+YTFqfBH+cNemsTORQQBkPjzxDN+aQw/LCrTgbxAEB0PUDeXQDr4KrAdbBiM7DMtgsijrARtUr+hjs/e2ATuECCRnrkeQa9b2F28RF1sgQ0uEtCbraR9wAoSAaIQ0BM7qs/gzsF1WrcDGcaLwtN8aQlNLcrZACtxqFwhEtowxC3HEBFUgBxSXahq7btxWQwCQAFE0RVRbcv16Fhe7DfpDGzDwaxtXr8CADAzLAIehr5QgC7qAtlMQB3kQthcgb87mCkGXHBarRe6Ade6qBUrERAWEQw4nSKoxsSmUBwGrSNGhGdiKCaGQCsfwDAPAAMHxPojWb/9WbbGxDkgXcikwcq+AC0H+QLFEBw7Ydmc3t3ekgBVfF3YiwEOpEXGusQcVd3T8ULkdmwY5t3CJ23AjQEKXtAuVR3UCR3AGdxu5Qb3Wi0Ik8rz7K7tMl0YZYgEfgAKpm0wATHFGt7+4sUcGzLkeEHkld3JSQHfpi3SVG8G70RsCYHLjN3GxwQ71ACGKVwaY8BnWBHY6JAhw9xjKgQcstL0d/EhN50enexqREAsH0gRrUAd+MB/vEB34t3E5h2wBABwCUggpx7vhMBsovHWZ0HiJi28mUAiO4ArW2xrxQXZmh39gEB68YbxsFEiDJ3MKUsO2pwNaQAb7oQotLEsksBjsMUqJZHuZp8KiEAyO137+FUwgBoIgklEN35AO85B4i1fFwsAMS0wBHoACh9DDhZQgC9IgD2J8udd5NrQAnxR4aVx4eFB0RTxGjqRJ/fEfkOclcCRzbjDKdtcd35EGa3cMsAQBGkAChLDFuCAElmfIiJx4PcJ3n1dMr7cKtTBKYyIf9GEfOYB3J6h90XAAspTF/YQnhZcH2CAO7RAlaCcGqKwi7fcBgTcJ4ScicsAH20Af+wADF8h1ndd6vodMQbAkX3TIDyJOeicevxRM5yQn6dEIMTIEYAjLUHJ2WKAffQwnLHhMt+DLbLAgUWwPLGADVwDO/MF/LMIhi5BN9cxMztQda1IJoKCCnVQBkST+JERiJKKkBFUwf+CwDvZn0WJwCaLQyHEyJ3UyeUTwBLjkTfWxIz2SgdPcfd83CSBCSnQQUPWXJvnnJo7MgoLQCK6Q03RiJ7pgBDHIDadHhtFE0vvXKTqN1TBIfVydSjPw1ZvEfwww1i8IKRPV1eJETmvdf/u003gCBXDAASegibTwC0sygfKEhFyABp2ACsngg7VC1XlNfadkUWpS06PgeVrChX4N2PA02DySKYit2IHA2EUA1xQ1D7AnI08AB3sw2mnSKpiwgNBwABLgASrAKKb9BqltiKstBq39UrBdJIwCgj69B9tgiHuo26PwUgYQ24tCUjNi28OtKpG9C0b+IAVz8AcpdYQ6UNieoArLAFSfEiqjUip4+E1kaAWSzdsT0IGLEIw16AffQCmWgimakgyL6ISRAIUSqIbwUHzj1FLD8AxVYAfXMIUl6ANhcIboTTCNUIr/FI1/YoWE8t/JLdvrndXUbd3sgA8wwANeoAZY2AyhqCi0bVLuvQ734ALZjYLAwAzoxIV5mIt8uC492NbdIgm18IW2zTD1EN9KyOKwGC/OmFfWnVQwwFKiMAyvjSwFgytJEOBqOIY00CqZ8IeBaN+jolOsmAqu+AAcAIzCOAWIJY3hlC5TfgzU0NYloIna5I998A0ZvuHW4lJPFVV0SIh6sA3oUA8skAP+hf0JAIMoHuBQpXiK91JQ/vLnAwMIjQAL5cgGeTDc9LDnXJAGjWUsyKIszJIwC4OOO9AFahAKSA5VQAgJswAETfAGfDAp06KO2BINCQBZdqVV2tjmKhUDw1Isx5IspG7qqO4N66BUBo4JpWDmmChUrPDl92KPcIXrl66VvJ7q6/AzwT7sZ86Mxz6P+KIvnegJuC5TB0kx/kguJbmLnPCJhvkBmM7rbd4O+iAD3uhRr6g1i44wz9JaGm7gU3417yKLr8ALSeDoF6mZ1XIJpAAyDHAs1oiQFrNWbeVXjQVTFtAtilkExPg0X9kxokCZC5ABQjUvOmORGMkDYCDs+h7+iyXTC0vwLL6eDzIQNATpihFAMI+g6xRjMYmlW1ygBhnfjhyvCDqpBArTWixvBWTgU0VzNEkDLod1ljJJkyAjMvyO8m7AB9/A7jNwBWXQCcCgkmVFWLdA8VoJlUepnkD5MSHDASrQCCApkrjV8A35kDaJk4tAjspJki3zMqAwDNEQkSaQCMgJ9GnJDq91ktweWBE/kTrDM+oQkn6ZW7sVlPPFNltp8+UwD1KjXBw5ALh5kEsDN4OjmT6AXERjAKelmEdQBYo/9FkfDIFVM4jQCrsA+FUPmVkw9SvTD/dYm8YglB0gl8OVmZvpns3QXCTw+rHfBnxw+7n/lrwvl4D+Q1ygLwbCT/w3c/zJ7w5gtQU6bwytpQ80kAWSWQxnzzZzaQd1aTiIIzOd8zmhE5XWwKChJf2pMPzolQiugPJvgFvqKZjCWZgToJ0AsSoXEjZ7vrnrd2OLmlHHAkD4cC+GlTKehEVbsEGFo1lCotTJlg6fjCtmPg2T1oADoEe0hkixs01dvhlYzoAiRs1Bh0CQahGZgofbOn00sqAJZQzAAw+CItkqUiVPN3b7amhJ0/Dhh0GSbvEIo0mVMwQYTjCKBQQKHWzo7pE0g3PaTqe2jEj11i4hF0ulkhGYMOIQK15L3vwZN68FDzGbVD1LkAEFI1lBoIAUKcMmqGLUmAr+8mpkjZ6+yghQIIHIla8mcqyZswfDiklic5tKwnWkIDh4/3SAyZSqWdmzlT9qm0kDa0MBEkIYYrXL8B9y81z4GNMpWDQGGwD5LEIlT95+nR98IERJl5I3fhJfJ+MJZYMOoHEhacMnXDwWjDkFgyaj7+wa7Zt3fANDLGciS8ERWoigAo9u9MLBC0xQYeaAC4oTAqZt1tnHBr4U0ECFR2qJSg/eVtghjE2AgYYBDgKJ5Bbd+BBHnhZ6yE4YaRzwYJBJcknCDT/IoeeFH8r4JCcIQChkFengqAa2GK44I6kAJBDhkFZ6ae0adPCZIYuskBmAhEReUauOD/m5oYsLm4nWzMRaRNtjvx3HkG+a86LchYk4rDnnnjLTIOWvCkpYJJYgpLiDG71y+CKTxxTwrsYj2uhDHOuW/KQYACB4bkj2qrRHBjMTLcACExiZZQjxvoFnBR6yG8ZPKFkBcw5s0tGnBi4uOWW4DEy0RbdO51HSjKSaG2FNIKKwgxt2+qFUExhlFMTUIabIg1YWeiCjSQAiEAERNqmV1B8dwuDERwc+KIRXJ+jIRp19bvDC0gA56FaXJeK45hx8aNjCkmLrhOQWJNz4o5x6YsACUWUM2LARWopYA8eAAAA7';

function pattern(x: number, y: number): [number, number, number] {
  const i = (x * 7 + y * 13 + ((x * y) >> 3)) & 255;
  return [i, 255 - i, (i * 3) & 255];
}

function image(src: string, width: number, height: number): ImageRun {
  return { type: 'image', src, width, height };
}

function bytesOf(uri: string): Uint8Array {
  return new Uint8Array(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64'));
}

function uri(bytes: Uint8Array, mime: string): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

const DPI = 72;
const YELLOW: [number, number, number] = [255, 255, 0];

test('transparent GIF and WebP show the paragraph shading through; their opaque half keeps its colour', async () => {
  const bytes = await render(model([
    para([image(GIF_HALF, 100, 50), image(WEBP_LOSSLESS_HALF, 100, 50), image(WEBP_LOSSY_HALF, 100, 50)], { shading: '#ffff00' }),
  ]));
  assertValidPdf(bytes);
  const r = raster(bytes, 1, DPI);
  const colours: Array<[string, [number, number, number]]> = [['GIF', [0, 170, 0]], ['lossless WebP', [0, 0, 255]], ['lossy WebP', [0, 0, 255]]];
  colours.forEach(([name, rgb], i) => {
    const x = 72 + i * 100;
    const opaque = countPixels(r, DPI, { x: x + 5, y: 77, w: 40, h: 40 }, (p) => near(p, rgb, 30));
    const through = countPixels(r, DPI, { x: x + 55, y: 77, w: 40, h: 40 }, (p) => near(p, YELLOW, 10));
    assert.ok(opaque > 1500, `${name}: opaque half drawn (${opaque} px)`);
    assert.ok(through > 1500, `${name}: shading shows through the transparent half (${through} px)`);
  });
  // Embedded as images with a soft mask (alpha), not as JPEG.
  const s = structure(bytes);
  assert.equal((s.match(/\/SMask \d+ 0 R/g) ?? []).length, 3, 'three soft masks');
  assert.doesNotMatch(s, /\/DCTDecode/, 'no JPEG re-encoding');
});

test('an opaque GIF stays an image without a soft mask', async () => {
  const opaque = 'data:image/gif;base64,R0lGODlhIAAQAPAAAACqAAAAACH5BAAAAAAALAAAAAAgABAAAAIUhI+py+0Po5y02ouz3rz7D4biSBUAOw==';
  const prepared = prepareImage(opaque);
  assert.equal(prepared.format, 'PNG');
  assert.equal(prepared.data[25], 2, 'RGB PNG (colour type 2)');
  const s = structure(await render(model([para([image(opaque, 64, 32)])])));
  assert.doesNotMatch(s, /\/SMask/);
});

test('an animated GIF or WebP is drawn with its first frame', async () => {
  const bytes = await render(model([para([image(GIF_ANIMATED, 100, 50), image(WEBP_ANIMATED, 100, 50)])]));
  const r = raster(bytes, 1, DPI);
  for (const [name, x] of [['GIF', 72], ['WebP', 172]] as const) {
    const red = countPixels(r, DPI, { x: x + 5, y: 77, w: 90, h: 40 }, (p) => near(p, [255, 0, 0], 40));
    const blue = countPixels(r, DPI, { x: x + 5, y: 77, w: 90, h: 40 }, (p) => near(p, [0, 0, 255], 60));
    assert.ok(red > 3000, `${name}: first frame (red) drawn (${red} px)`);
    assert.equal(blue, 0, `${name}: no trace of the second frame`);
  }
});

test('GIF decoding: interlaced rows, a full 12-bit LZW dictionary, a frame placed inside a larger screen', () => {
  const decoded = decodeGifFirstFrame(bytesOf(GIF_PATTERN), DEFAULT_MAX_IMAGE_PIXELS);
  assert.equal(decoded.width, 80);
  assert.equal(decoded.height, 80);
  let wrong = 0;
  for (let y = 0; y < 80; y++) {
    for (let x = 0; x < 80; x++) {
      const o = (y * 80 + x) * 4;
      const [r, g, b] = pattern(x, y);
      if (decoded.data[o] !== r || decoded.data[o + 1] !== g || decoded.data[o + 2] !== b || decoded.data[o + 3] !== 255) wrong++;
    }
  }
  assert.equal(wrong, 0, 'every pixel of the pattern');

  const offset = decodeGifFirstFrame(bytesOf(GIF_OFFSET_FRAME), DEFAULT_MAX_IMAGE_PIXELS);
  const alpha = (x: number, y: number): number => offset.data[(y * 20 + x) * 4 + 3];
  assert.equal(alpha(0, 0), 0, 'outside the frame: transparent');
  assert.equal(alpha(11, 5), 0, 'left of the frame: transparent');
  assert.deepEqual([...offset.data.subarray((5 * 20 + 13) * 4, (5 * 20 + 13) * 4 + 4)], [255, 0, 0, 255], 'inside the frame: red');
  assert.equal(alpha(17, 7), 255, 'the frame\'s last pixel');
  assert.equal(alpha(18, 8), 0, 'past the frame');
});

test('a truncated GIF is refused as invalid_image (omggif reads whole files only)', () => {
  const full = bytesOf(GIF_PATTERN);
  const cut = full.subarray(0, Math.floor(full.length / 2));
  assert.throws(() => decodeGifFirstFrame(cut, DEFAULT_MAX_IMAGE_PIXELS), (err: unknown) => {
    assert.ok(err instanceof EngineError, String(err));
    assert.equal(err.code, 'invalid_image');
    assert.match(err.message, /GIF image is damaged/);
    return true;
  });
});

/** RGBA of pixel (x, y). */
function pixel(image: { width: number; data: Uint8Array }, x: number, y: number): number[] {
  const o = (y * image.width + x) * 4;
  return [...image.data.subarray(o, o + 4)];
}

test('interlaced GIFs 2–4 rows high keep their rows in order (omggif alone misplaces them)', () => {
  // Rows stored in interlaced order (0, 2, 1, 3 and 0, 2, 1) by ImageMagick without interlacing, then the interlace
  // flag set by hand: ImageMagick 6.9's own interlaced writer misorders rows of images under 5 rows.
  const four = decodeGifFirstFrame(bytesOf('data:image/gif;base64,R0lGODlhAwAEAPEDAP8AAAD/AAAA/////yH5BAAAAAAALAAAAAADAAQAQAIFhIWhwwUAOw=='), DEFAULT_MAX_IMAGE_PIXELS);
  assert.deepEqual([0, 1, 2, 3].map((y) => pixel(four, 1, y)), [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]);
  const three = decodeGifFirstFrame(bytesOf('data:image/gif;base64,R0lGODlhAwADAPEAAP8AAAD/AAAA/wAAACH5BAAAAAAALAAAAAADAAMAQAIEhIWhBQA7'), DEFAULT_MAX_IMAGE_PIXELS);
  assert.deepEqual([0, 1, 2].map((y) => pixel(three, 2, y)), [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]);
  // Two rows: interlaced order is plain order, yet omggif writes the second row four rows down (outside the frame).
  const two = decodeGifFirstFrame(bytesOf('data:image/gif;base64,R0lGODlhAwACAPAAAP8AAAD/ACH5BAAAAAAALAAAAAADAAIAQAIDhIMFADs='), DEFAULT_MAX_IMAGE_PIXELS);
  assert.deepEqual([pixel(two, 2, 0), pixel(two, 2, 1)], [[255, 0, 0, 255], [0, 255, 0, 255]]);
});

test('a GIF frame reaching past the screen is clipped to it, not wrapped onto the next rows', () => {
  // GIF_OFFSET_FRAME's 6 × 4 red frame moved from x = 12 to x = 17 on the 20 × 10 screen: 3 columns stay visible.
  const bytes = Buffer.from(bytesOf(GIF_OFFSET_FRAME));
  const descriptor = bytes.indexOf(0x2c, 13);
  bytes.writeUInt16LE(17, descriptor + 1);
  const decoded = decodeGifFirstFrame(bytes, DEFAULT_MAX_IMAGE_PIXELS);
  assert.equal(decoded.width, 20);
  assert.equal(decoded.height, 10);
  assert.deepEqual(pixel(decoded, 17, 4), [255, 0, 0, 255], 'the frame\'s first pixel');
  assert.deepEqual(pixel(decoded, 19, 7), [255, 0, 0, 255], 'the last visible column of its last row');
  let opaque = 0;
  for (let i = 3; i < decoded.data.length; i += 4) if (decoded.data[i] !== 0) opaque++;
  assert.equal(opaque, 3 * 4, 'only the 3 × 4 visible part is drawn');
});

/** Decodes `bytes` in a worker thread, so that a decoder stuck in a loop fails the test instead of hanging it. */
function decodeGifInWorker(bytes: Uint8Array, timeoutMs: number): Promise<string> {
  const moduleUrl = new URL('../../../server/engine/images/gif.ts', import.meta.url).href;
  const worker = new Worker(
    // Node 20 does not pass tsx's loader on to workers: the worker registers it before importing the .ts module.
    `const { parentPort, workerData } = require('node:worker_threads');
     import('tsx/esm/api').then((tsx) => { tsx.register(); return import(workerData.moduleUrl); }).then((m) => {
       try { m.decodeGifFirstFrame(workerData.bytes, 1e6); parentPort.postMessage('decoded'); }
       catch (err) { parentPort.postMessage(err.code ?? String(err)); }
     });`,
    { eval: true, workerData: { moduleUrl, bytes } },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('still running (endless loop)');
    }, timeoutMs);
    worker.once('message', (outcome: string) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

test('LZW data that uses a code before defining it is invalid_image (omggif would loop for ever on it)', async () => {
  // 4 × 4, min code size 2; codes 0, 7 (not yet defined), 1, 7: omggif's dictionary entry 7 then points at itself.
  const hang = 'data:image/gif;base64,R0lGODlhBAAEAIAAAP///wAAACwAAAAABAAEAAACA3iuAAA7';
  const bytes = bytesOf(hang);
  assert.equal(await decodeGifInWorker(bytes, 10_000), 'invalid_image');
  await assert.rejects(renderModel(model([para([image(hang, 20, 20)])]), { test: false }), (err: unknown) => {
    assert.ok(err instanceof EngineError, String(err));
    assert.equal(err.code, 'invalid_image');
    assert.match(err.message, /code before defining it/);
    return true;
  });
});

/** The chunk `tag` of a WebP file, header and data (its sizes here are even: no padding byte). */
function webpChunk(file: Uint8Array, tag: string): Buffer {
  const bytes = Buffer.from(file);
  for (let p = 12; p + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(p + 4);
    if (bytes.toString('latin1', p, p + 4) === tag) return bytes.subarray(p, p + 8 + size + (size & 1));
    p += 8 + size + (size & 1);
  }
  throw new Error(`no ${tag} chunk`);
}

function riffChunk(tag: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(tag, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, Buffer.alloc(body.length & 1)]);
}

/** ANMF data header: offset (in 2-pixel units), size − 1, duration 100 ms, no blending/disposal flags. */
function anmf(x2: number, y2: number, width: number, height: number, chunks: Buffer[]): Buffer {
  const header = Buffer.alloc(16);
  header.writeUIntLE(x2, 0, 3);
  header.writeUIntLE(y2, 3, 3);
  header.writeUIntLE(width - 1, 6, 3);
  header.writeUIntLE(height - 1, 9, 3);
  header.writeUIntLE(100, 12, 3);
  return riffChunk('ANMF', Buffer.concat([header, ...chunks]));
}

test('an animated WebP\'s first frame keeps its alpha and its offset on the canvas', () => {
  // A 30 × 16 canvas; frame 1 is WEBP_LOSSY_HALF's ALPH + VP8 (20 × 10, left half blue) at (4, 2); frame 2 covers
  // the canvas with WEBP_LOSSLESS_HALF's VP8L and must not show.
  const lossy = bytesOf(WEBP_LOSSY_HALF);
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x12; // animation + alpha
  vp8x.writeUIntLE(29, 4, 3);
  vp8x.writeUIntLE(15, 7, 3);
  const body = Buffer.concat([
    riffChunk('VP8X', vp8x),
    riffChunk('ANIM', Buffer.alloc(6)),
    anmf(2, 1, 20, 10, [webpChunk(lossy, 'ALPH'), webpChunk(lossy, 'VP8 ')]),
    anmf(0, 0, 20, 10, [webpChunk(bytesOf(WEBP_LOSSLESS_HALF), 'VP8L')]),
  ]);
  const file = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), body]);
  file.writeUInt32LE(file.length - 8, 4);

  const decoded = decodeWebp(file, DEFAULT_MAX_IMAGE_PIXELS);
  assert.equal(decoded.width, 30);
  assert.equal(decoded.height, 16);
  const [r, g, b, a] = pixel(decoded, 8, 6);
  assert.ok(a === 255 && b > 200 && r < 40 && g < 40, `blue inside the frame's left half: ${[r, g, b, a].join(',')}`);
  assert.equal(pixel(decoded, 20, 6)[3], 0, 'the frame\'s transparent right half');
  assert.equal(pixel(decoded, 1, 1)[3], 0, 'the canvas above and left of the frame');
  assert.equal(pixel(decoded, 8, 13)[3], 0, 'the canvas below the frame');
  assert.equal(pixel(decoded, 27, 6)[3], 0, 'the canvas right of the frame');
});

function expectTooLarge(src: string, label: string): Promise<void> {
  const started = performance.now();
  return assert.rejects(renderModel(model([para([image(src, 50, 50)])]), { test: false }), (err: unknown) => {
    assert.ok(err instanceof EngineError, label);
    assert.equal(err.code, 'image_too_large', `${label}: ${err.message}`);
    assert.ok(performance.now() - started < 1000, `${label}: refused from the header, not after decoding`);
    return true;
  });
}

test('the pixel limit (40 megapixels) is checked from the header before any decoding', async () => {
  // GIF: a 10000 × 5000 logical screen (50 MP) with a one-pixel image.
  const gif = Buffer.from(bytesOf(GIF_HALF));
  gif.writeUInt16LE(10000, 6);
  gif.writeUInt16LE(5000, 8);
  await expectTooLarge(uri(gif, 'image/gif'), 'GIF screen');
  // GIF: a small screen, but a 60000 × 60000 frame.
  const frame = Buffer.from(bytesOf(GIF_HALF));
  const descriptor = frame.indexOf(0x2c, 13);
  frame.writeUInt16LE(60000, descriptor + 5);
  frame.writeUInt16LE(60000, descriptor + 7);
  await expectTooLarge(uri(frame, 'image/gif'), 'GIF frame');
  // PNG: 8000 × 6000 declared in IHDR (48 MP); jsPDF would inflate it.
  const png = Buffer.from(encodePng(2, 2, () => [0, 0, 0, 255]));
  png.writeUInt32BE(8000, 16);
  png.writeUInt32BE(6000, 20);
  await expectTooLarge(uri(png, 'image/png'), 'PNG');
  // WebP: a 20 × 10 canvas (VP8X) whose VP8 bitstream declares 10000 × 5000.
  const webp = Buffer.from(bytesOf(WEBP_LOSSY_HALF));
  const vp8 = webp.indexOf('VP8 ', 12, 'latin1');
  webp.writeUInt16LE(10000, vp8 + 8 + 6);
  webp.writeUInt16LE(5000, vp8 + 8 + 8);
  assert.deepEqual(largestWebpFrame(webp), { width: 10000, height: 5000 });
  await expectTooLarge(uri(webp, 'image/webp'), 'WebP frame');
});

test('setMaxImagePixels lowers the limit, also for images decoded before', async () => {
  try {
    await render(model([para([image(GIF_HALF, 20, 10)])]));
    setMaxImagePixels(199);
    await expectTooLarge(GIF_HALF, 'cached GIF under a lower limit');
    setMaxImagePixels(200);
    assert.equal(prepareImage(GIF_HALF).pixelWidth, 20, 'exactly at the limit');
  } finally {
    setMaxImagePixels(DEFAULT_MAX_IMAGE_PIXELS);
  }
});

test('damaged GIF and WebP images are invalid_image EngineErrors', async () => {
  const gifNoImage = new Uint8Array([...bytesOf(GIF_HALF).subarray(0, 13 + 6), 0x3b]);
  const webpGarbage = Buffer.from(bytesOf(WEBP_LOSSY_HALF));
  webpGarbage.fill(0x55, webpGarbage.indexOf('VP8 ', 12, 'latin1') + 8);
  for (const [src, label] of [[uri(gifNoImage, 'image/gif'), 'GIF without an image'], [uri(webpGarbage, 'image/webp'), 'WebP with a garbage bitstream']] as const) {
    await assert.rejects(renderModel(model([para([image(src, 20, 10)])]), { test: false }), (err: unknown) => {
      assert.ok(err instanceof EngineError, `${label}: ${String(err)}`);
      assert.equal(err.code, 'invalid_image', `${label}: ${err.message}`);
      return true;
    });
  }
});
