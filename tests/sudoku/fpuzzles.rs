//! f-puzzles: real links made by f-puzzles itself are read and solved to their known
//! solutions through the command line; every puzzle the project ships that f-puzzles can draw
//! goes out as a link and comes back the same; what the reader cannot take is refused by
//! name, never solved with a rule left out.

use crate::common;

use common::scratch::ScratchDir;
use common::{err, out, xcover};
use xcover::sudoku::rules::Constraint;
use xcover::sudoku::text::FaultKind;
use xcover::sudoku::variant::{fpuzzles, text};

/// Fourteen f-puzzles links with the solutions their tests state, from the test data of Rangsk's
/// SudokuSolver (`dclamage/SudokuSolver`, `SudokuTests/Puzzles.cs`, commit 226e55b): five
/// classic puzzles and nine variants whose rules are all read here. Names and setters as
/// that file gives them.
const REAL_LINKS: [(&str, &str); 14] = [
    // classic, givens only
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QCUIAHInMEVAQwFc0ALAewCcEQAFOiLYgAgDkYAdwC2lAHYUQTamRhpWfZqKw8w1ACYMA1tR7SyPSiSwBPAHQ8AgmPU96lNAHIwPTAEJJAcyYR1CANr+oABulFjUuCggnhDBMBLwaNIwAL7IwGkZ6ZmZIKHhuAAcqDFxCUkRufkRCADsJbHxCBWp6XlhNfAAbA1lzck5ALrIQTnZbdW4AIy9TYkDEx2Rs+ULWetDIxuLBQgATCv9lePbpynDozudAMyH88dnJ2MZF+vtu0h3Lc8/J++dM2ijVWD3+uB6QL691SrzBCGKkLm3yeKLekwQAFYvms4Z9ESDWi8trj6vijoTfmilggIaUkTj0fAEXSCVVqfAsWToZsgrjOSzyZS2R9mcDBVdllzkSF2bSxdyJXVsQ9zlshYqOcqKajcQAWLXnQYpIA===",
        "913548762678192435452637189137965248295874316864213597749326851521489673386751924",
    ),
    // classic, givens only
    (
        "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSQA3AQwBsBXOeAZlTQgpgDsEAXDBkqGr1GKdOy69+MQbNJyhtBggAsrCd3h8BAXWSEFh+ccUiEAVnUdN2mfL0Hyw5fABsVyVukLKSxgA4PG28TXzN4NXFrKQFQ50YARiCYu2IHMgywlwB2ZK9YzPiEFijPWyNCvwQxNmj8mXSKrMYAJjzyuKq3dpCM2XTm1R6CpqL4S1Lgkacuktqy3v79SvDAyZSfMdz1+orBQe6djrTl/bGko8WTPftlg5qNDevn0xcL+anUg4mPp76dHREIA=",
        "823915674741362958569874213657438129138296745492157386385729461216543897974681532",
    ),
    // classic, givens only
    (
        "N4IgzglgXgpiBcBOANCAhgVwC4AsD2ATgiAGIA2hEaAdgAQDqhWAtjdSKgRmTGDFsQByhVmVoBlDABM8Aawy0uPMBxABzAhCkIA2juABfZIeNGT5kADc0ZDHHgBWVGoiWY7eFi4wzVm3YQARmdXdwQvO19rW3sAFhC3DwifUwBdZH0o/ziEsM9vLJiEADZcpILTYz8i+ABmMvCK8zNCgPgAdgb8yPTMqui2gA4u5JbKiwH7YPVQ8sjx1vsAJhGC3ub+7IRhmcTG+Y3QSYR43bzRhc2a+rO5n3XFhE7b/ZTD6rbplz3ut7GjrbwFYvX4tdYfZarA7/R4dKF/cYQhBOEEXQzg47wUqopqw07fc5NJF1eEwq5tFA46FpDITQE3Al3Ml0mo7RmvZkGB6XAE1bHs0HknJUhGHLmpAxAA=",
        "392785146146932587785461392518294673473516829269873451654327918937158264821649735",
    ),
    // classic, givens only
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QDUBDLNQgJwhFUIFc0ALAezIXHoE85UyacwY0rAHbMAtsQAEYGgBNGAaxoSefCYQAO6rOyogA5hRkIA2sdAA3YjVwAWVHojmYQhGh4wAvsmBef33wH+QRZWuABM9o7Oru4eALrIZoEhWNYIAKyRTi7wbtbJIJapuAAcWdG5sd6FoQgR+lE5eZ7VRWlI5U1Vfj4JSa218PUO2TH5wckFbbgAzJ1jLb2JPb41xQhlDaOV4z1r7QCM8zuLk/59Ke2ZWxXNq9MIAGzHdxMD6x03XbtTgwDsL26+1KgPyFzOewe8GeXwWvw+1xGt26AXB70OoNObxW6NwMKR31OaMhg3xjThuIQR1hJ3ug0R5NpwWBCABNNeKwuLPgc3ZKOxELpHzsfLBcQ8QA",
        "483971652675382941129645837948517326561293478732468519814739265296154783357826194",
    ),
    // classic, givens only
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGEsBDMSAYwAIBlAVwBMB7AaxooGIAWEVImtACwYAnBCABWDAG4QA+kSzcQQmjjAw0ogHLCAtvIph6zVstUUiABwtYAngDpFAcyEQ6CANrvgAX2ShJ8jS4AGyojhCSMAB2CGjKML4+fomJIAFYQQgoIOGRMfBxQSl+aYG4HGER0bHxKQC6yF6lGbgAjJV5NUXJPUn+ZQgAzB3VBbW9xf0tCACsI/mFCQ1ek6npmfAATPNdCb3NG6E5VQvjfWsD8AAcO2NFy+cl67gA7LeLq/vPWe9n9Y19A7lX7dR5gi7TLYgvY+B6TIEIdrHTp3GGfKYbYbI0YfCYPBHwI65HF/L6XG7Y06giEbCqU3bo7z477wOb01GMp6XN7s3HgrmQ7LEqlLAE03DbXmkjG4IUnBkTMmQinChWwureIA=",
        "765189243182437695934256178857623914346591827291748356679814532518372469423965781",
    ),
    // "Bird in a Storm" by Gustaf Hafvenstein: Palindrome, Kropki w/negative constraint, King, Nonconsecutive
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QCEIAnAEwAIIA7MgQzLDQHsiBbEVGgVzQAtmEQAcU4MaAMzIAJcQDcYlBjCrsQRTjjAw0AgMpoalEjVL1OJRgGtOZNRtoAHe1gCeAOjIAdSl70GjJiyJGewsIG3UYMAcnNzIAQTIAIywaAGMLMnM0ej4Adyi6IhoMRjJGCQBGeAAmJK1cmHkyNFzS1JgsLDB3BNyeTBhMxmzE+sbqFraOrrIWGAMo3hhnWiJB1MYFGFTuCDkezqG0ArWyAHM9+VcvLzjKDABaC0oIM55s20jol3cAOVKSK9MGRUgZ6I0KMcOhIqLQQTxIlFnq93oBMAiiLEY+xulAAKgjMkVctQsFRBhACmR7DRSYYgnNkLRDLMRB95uQlvQaHMyLkaCsxPSksMeGR5CRuiozkQICQEABteXAAC+yBVatV6q1mp1GoAusglbrtRrTSaVQajWbjTbrZbzbaHfrDU7XTb7Y7PXaXV63c6rX63R7rSGgwaQAYMMi3tp4Gg1DBUJRNhstjsMHIEPHOImQNTaSR6bglSBaZEFfKQAAlRAAYQAbCoa7WAKxNgActYALE2AOzdvutpv1htNlu13vDidj0eoKtd6dzheNucAZkX1fXK+r1Vnm6Hc93bcPA7XtdXTfXPaX55nF7nI/v1f7T6r/eqU4qID1euV4cBYhiDAayUO0CqgO0nRgAq1YVBuVZwY2v5qiAkFdDBVa7l+J4fshEHTNB8CVphtaIE2u7tt+mqoQRGHrq+V5UShaGEcR67YfuuHUSxGELq+C5ccxtFEdWfFNguPZ4TRUEYeOk5zuOlFSTxIlVuO25qdOynCcR47XtW45ttpMmqeOHGaYJ+EmcRI7mSOlnSehqkjvJ1Yjkh3E6c+8H9kpnnWd55nvkxVlOcRdaUXOdaTsZYXeR+D61g5KnEZ2r51hesWsfu/G3llGFwa+u6Zf5cVVoxJ6SaV2Xzqe+5VUJAWafptUNaFNWdi1dZtY5HUHtWdZGdVsn9VWI5DY1ZVwceO5Dvlzl7ppHmTTV/Yae5IW9RhdYaZ2y3tSNrljVpw2qRRTZwX5K0Yb5U5XQdql1mRc6dmR802aRg5vadxFwc9s3fddqmFRdA6/uGlAwGcxSXDBRQlN+qDwxAjAKr+QA===",
        "317649825986257134452381796623418579879562341541973268238194657795826413164735982",
    ),
    // "Self-contained" by Lavaloid (killer, knight)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGUYsAzAWgGMB7AOzQEMJqYATEVOgVzQAtKAnBCAAydAG50slCK1R8OOMDDSCA1AAIAcvwC2EtWA7NKAaw5q5CtXQAO1rAE8AdAB1qAUVEw+985QDuyGpUWBza1IF01MxqAMwAHjFqAEaUcUE09IxgVlhYaswQAOaY2cR8lNpqAIxqaJRqiC7UruoAgrQQxtRF3Gjm8jBWtlgQMGBNACJFJfow1nR8dGgsyT50Qdxj2V09aADk2dqUnmq6PtSUfUmD0jAd5BJNLWoA0hC5Xv04Q3aj465TYpobKMKxBOiFQbaDhgPoGSp1WqbNTUULXPhqPx8TDLahqUE8QZ1axqHDENCONSAmbQ2Eoy7mOYwJb4vHrB6QxxsECFbGseAAbQFwAAvshReKxRLpVLZZKALrIYVymWStWq0WK5XqkDkQQAYgmAAZjQAxU0gKW6g3Gs0Wq16vCGk1G82W8XWp22132j2OkDOu3umVajWegPet0Om0uqN+mNB6Ne2O+0D+wM+4Oy0Mq8MZuNphOZpMRlPBvOR1MVssqkU5nXpyvlxs1+PJxNt0sdwvt4vqutKsMt7vVkfDvs9rsT0cT7OD2v9xch+dLhcauuKkCRDA7Qq9BBoOQwVDGd44Pgc3DC3VELBgBACkAAJQAbABhGLcp8Adg/X9/AAsICbuIIS4CAABMn4Ore96Cs+AF/qgT6IUByGIQArMBqCgRw4FQc2sEPs+MRISRb5ASBEh4YIAAchG5HBj5PhhZEsRRX7vpROHUeBVRYTBjHEexWHIe+onPu+L7YSAuF8YgDF3sJiHfl+rHSchrGqVRYGCFUQGCUp8FPqREkmW+Gnkap6EWTJcl6QJfpEcZv5mb+0k6TReD0YZTGSW+1nPr+2k8bpeDSXWIpAA===",
        "653418279174259863982673451528961347317542986496387512769835124831724695245196738",
    ),
    // "300 Subs!" by Rangsk (Thermo, Kropki w/no negative constraint)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGYAGQgAgGUBXAIzAEIRUBDCtACwHsAnBEAJUYB2AczABrBiE4UcYGGh4A5LgFtGWchQAm7URRJSZJRgAdjWAJ4A6ADoDbZNIM2NOmkmxidl7ZXM9h4EgARCCFMMBIwNE4IAGNscxIIAVjOGEZZEgAzTh93VhgSKmkqEhgBTRs7AQcnFzcAaVzjUQgSAAoBdhIBGCFGDAA3Qtj2ASjORmS0AEpAkLC0CNljFwGYNypExhIAd1ZMQu00IzSSUfGYWJYIYctg0PDImFXJtA2i7aKsRljREmOJFYjGGRhIAEZ4AAmfQDCDsSwSIQxTQIADaaOAAF9kNjcTi8YSCcT8QBdZCYklE/E06nY8mU2lU5lMhl0lnsskUzk85lsjkC1ncwW8rmM0W8/lM6WS8noApeHx+bjwTEgLDJGBgdFovj4ADCABYJLxDUaTQBWc2oXhWi2W/UANhNZudNoNbr1+vtpNJBPVmu1qt1tv1AHYTY7wyaw9GbbGABwx/WISMph2pm1WpO+/0a3pBjF8cH68EmqH6qEmg34F2Vh21m1Rqvx0sgXNyzQQLJZTzlWK4NUDrBYQt8RDWvgJ81+3EgYej9FT70mic+/0Lse8acRm0TiOz0Cbpe8Cu7vgV52H+cwEdbqP2pszrFyt7w9FH2+L1UXye8EvGtex4/tu+pJja06pkBX5btOLbLrW0F3ieJbnqe0ZId+IbTsaEErn6fpAA=",
        "135462879729853461684197523851276934296345187473981256962718345548639712317524698",
    ),
    // "XV Kropki X" by Florian Wortmann (Diagonal +/-, kropki no negative, XV with negative)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QA0A1AAgGkAnAewAcBrCY/EVAQwFc0ALS8hEAMSw8ILAHbEA6jzQBbMaOYhybHGBho+AOR5ysxAMpsAJpVptiy1cTFHiXGHYDulYnIjijIgOaVRLLGDEAMa+aCzuxACMALSI1oGOMFhYAHQAOqIZ2uS6ZFR0DJYwYPAZjpyYDgC8wb5qQRwQAG4wGQBGWCxBtMQ1kfAATBYsGJRZlGjWycTUlGCQHQ4maIEs5A5ezTCi6ZmiAMJJAcRq1DDkIzBGGdHEbQCe1uL4J2wydi6RAAw3d48sxBIYDeH2IAFYMgBBaazeYQRaMVaiWyEVbrYibFo7RRecgQIwIADahOAAF9kGSKeTKTTqXSqQBdZAk+m0qnstlkpksjmsvm87mc/lCxnMkXivmC4XSgVimUS0U8hUSqW8tUqpkgTwsHx+LAAagQaGUMFQ2t1/miRpNZogADM7edtkFcCSQC7kmAiSAAEoAZn2fsUPoGgZADOp7qOXvghN9oYALMHQ0GIxSo57vT6ABz7ABswdzAHZw5GPQEs7mC6gfYh86X0+WY3GfUX6zWqw3QE2s23s8G2yW093o1m8/t+zW+12MxXY77cwNg3Wl8PZ83fXWgzWVzOe/Oc2Gd2G1/uW6Gwcn9kmI5qLqMiSPMweA9vfQHV2XRwfOx39pfT2/FtB2Dcchy/Z8W3HSdfTAvcgIXI9EM/TVRBgLwRi2b0AA8mnDVBcMfdcswDS8awvfCQCafw2FwEBCBACC5xbUjgwDAtNWorBaL4JhSQjIA===",
        "472596813895431726136728495348169257629357184517842639981675342263984571754213968",
    ),
    // "Fortress Sudoku" by glum_hippo: Maximum
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QDEB7AJzWJjDAAIBlAVwBNCBrOkVAQzrQAsSEQABR4QsEAA7iqAISx0AtjGRUOzDlQDmc+QH0RkwuxDE6OMDDQCAMjABmaQgDcYxKreKF5VACI0AslQATAAMgQCMAHQAOgB2sQDi5ACeVADGMFhY1KmEMWgcEDFUDBAamNRYHMQaLlS8HEUNKSS8hBq5HJkpHAwAVhzpeVQA7iJoMGkZWBFGGsQQDAgA2kugjp10uGGoZc4xCGSbAL7IwCdnp+dXlzdnALrIq9cXL88g63K4AOw7EHsHJhgzyODyep3eG1wAGZfv94IcgbdgUjwR9NggUCBdjB9vDASDHq9bhDPggACywnEA44oon3QnIukk9HwACslNxCMZBNWzNwFKxfypeJpdO5qMhCAAbBzqYj6WCxbTgaCmWjcDLBXCucT1Qh2VrhTqlQqTeK1pL4AAOWUi+Ugh4geQcAAeEHkCmWoHSmQEACUpQBhQIgc4gH1Yf2s4Oh8ERqOBqGx71Tf1kxPJ8OpvB+9NkzPxnPR1kF7MgAOBqWl305oNfauRouB+thwvl6NWhtpwOd1tlv2BZtdnODqt9mvlwcl8eNyeB/Mz/2DpOLnNWjOr8vrhdx/vr6e7id+9djw+z49DkFHIA",
        "194573628528694713637281549769428351382165974451937862843716295216859437975342186",
    ),
    // "Irregular 7x7 Kropki" by tsc (7x7, Irregular Regions, Kropki no negative constraint)
    (
        "N4IgzglgXgpiBcB2ANCALhNAbO8QEkAnQmAcwFcsBDQgAkQA9FaBpQgewAcBrCEVKuTQALdoQTowAY34hClGGBhoJbLr1rycYWlU6csAT3i0AOgDsAtLQDCMLFh1LONKmhgATWgCNDu2gDuwpgwtB7saLRS7OZoVBDmUTFKUkIQAG6hHhCkmGAAdLTWdg5OMC6Ebp4+flQ+1FLcYRFJsfGJ2bloOgGYwv4AjPAATJpuEOyFFtYA6n3sQrTmZOOZrWBolQloyLRg7EstVA60MAwQGwmkzd26JLS5meb5FhaypIQQHggA2j/AAF9kIDgUCQeCwQCALrIf6Q0EIiGgmFwxHwpGAlEYsFyMgTcwIAAsOJIuRiCAArCS8eT4FTgbiyQS6dDYaBSfiEABmalM7no9GMzkshkc2lUrFC2k80U05kANl5wuJsr58BV7LlRKVtMVyLZUuZMuxaNVwolMJA2QAZtaYCRzFJcP8QE7Sr8QAAlYY2Qmyb02CkgKE4t2OD0B+X+n1BkMMsNgCMDGxR1Ce5OIYOh+zh+A/L0Umxc/3yotZ+M5xN5r1cmwDf2Euvl0AJiOIMtp9vDZuuysRwt+tOlv1xlt96uewtBoeBrOWyoYdi/MfuifJ4tp5Mj7Or/PplP+5Oxne5vc+jden3biu7r3J7tpn3d0e92+e4cl2cv1sTxsXz2Ns+J5VnuhaZmmjaZiGIZAA",
        "7412365123654723574163125674476315256742316541723",
    ),
    // "159" by zetamath (Renban, Kropki no negative constraint)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QEYBWREVAQwFc0ALAewCcERY0yBbMm0keinMGGiYA5BhywACXvwkAzBhLAUAJrQDWFZFJgA7AEZkdWw8olr6tAA5qIEspctYAngDpuAc3oRlCANq/QdwgAN10ABV0AYwgsAFkyejUwBB0+LABfZECQ8KiY+MTk+FSsDKyQINCdCJ1ouISklLTM7KqauoLG4ubyytza/IaikrLW/o6hptKWipzqvPrCqdHZtoXO4Z6x+YHFrpH0gF1kANXxwaXu6d659ov9rbOdicuDm7XdjeWZvuf7zeu2zuewBK1+wK+VzBt3WkyhPxhnzhB2Op3BsNej3RSMxgKeEORWMRLweeOxJNBCI+FO+73OINpQIxpOh1P+31RTJxLKp9Mhby5NPhdL+DOFgvZ4vxzMpIoJuNZfMJZOJkpRJwlYoF0u5ss1/KJbK1hqVCt5ooNKqNlsVFuVtvlPM5OqF2vJapNdrNcpljJdHqtpp5Pt1fvdxsDXqdGv9EYdvql4Zt5sdetjyZDrs9qbDqrjKYT6rReYz+vtBdDiZL5czAfjlbd1e9Zeb6fLzqTNZbwe7ac7rf7PbbA6bQ8HfdHlMOxx4ugMOj8oCwEB0MCK/hAACV8ABhABM3G3O4AzIfdwAWM87wggaczZer9e+Le7gBsV4A7FeABxXkh38oHzXPxn03Pcd1/VAwJ3EgoOPGDD3PBCAKXFdgPgDdN3gr84IgxC8Kgwg8JQkAgKfLdXx3HCKJ3d8oI/WjD2/RiSLIkCt0QRioM46jN04yCOOQw57zQ8i+P3Q9ONPVjRPYzdmIPKDmOk4TANkjDQM4/AmJ3bT6N0w9KO0mTHzkhjFJoizN0o09CJPW9VNQ0yNK3Ii9NciSoKQqz4IPEz0Mw3d3Og4L4OCpDjMc0j1Mw8CrPA2yt3gxLNyQlSROc2Kd0vKDwJvXKuK3cCv38sT4LorckIqzciPfUq5Pg/LKuvQ8iKa6yWrvGdlAgWRZBgegolwU5IhgUp1w82CPN/YSZ3oTgIFoRcQFG8a/C3BjgvM28ZlWrAJvkqjJKO2bUCA5a2Jco9gvA0KDK8gzp1QWgqCAncmAAYgAIQABl+37uAAd28Lh4B+lw90IDKAtAozD02nTgq0hzntetD3rwb6/uxoGQeoBBwch6GxLc1rPOanyJKekAXuwdHPv+nHUGB5RQcJqG1My0Ddys3cUovK8b2p2m3oZ7GAeZvGCYhjmnJhl9CqPXjdwEo9/xnEX6cxxmJZAFm2Zl4m5Liw8EsPZL8JU1G6dXDGQCxxncdZ/GwcNzn5Zq+yoJswzyc3bbhbR22xcdyXnelon3bEhSdKtmmg5gO2HaZvWpddyO5bEzirKklH45txOQ5T/WXfZo2rvAnKipagrquKvPNeD7XxZ+p2DYz6Kuer1XwKmrCEIe9XrdF5vQ9T8P09lzuPew82COa1WiJmjWE6TnXW7D9up8uzDGvw9q2t9oWV4LteW7b0u3czhrFaqsm6pPkf7fXi+I+3mLYaO73FYY6rmIf4eWtn7n03pfDuO9NKKx4sdVWnEh75yfsnXWJc37l0Cn7PmV4q5HmPoApu9sACi+Afo/QAGKkNfq7c8qBZAWDYJuQw7gwBqAAMq0CwKERg8A0C8BgGg7mitdzK3nmrBuq9PpEJIeQyh4NqEgFobQehjDmFsI4QNBAPCKB8KjsbERvc559yQvAxuhdMaSLIRQ0B0s5EKKUToJhrD2GcI0bw/hSUv7uNVkhRexFH5AI+uY6RViqE0LoQw+xKinHqO4a4nRV1KK8UotVX+OkAEIP8YEyx48DY2LCcoxxaiuGaO0dfK6nFqrQO4iIuBYjT4SOIRYmRLhcmKPCQ41RziYlaLceJHO9lA51LMQ0oJ2TL4tLse0qJRTYmlMwjHJS/S/H4ICcMrJKCQnyLyREgpnTik9ORgsra90aKRTwaYwhqymnjLaZEwpLjulxMwttb+VkfZ2TjiYpOmSrmhNafkjp0S9mPNAqTOyVlvJzz8ks85KypFrLTrI35Ezbm7JmdPMSQVTbHP7uFR60KvmXOCYizZfztkAumQ82ZoETYFRShbB6HzxFDLhT8klyKdmArRRA6u2C8pYrridfF9SWVEuaUim5HKKUlPRTfaqd87JpM+cKxporrn/Kmfc6V3L+7tSQgfGuNFcHpOWd81V4r1V3K6Xw7qEAwBkD0DgZQWBaBBEiH4GcxTIgmG8JwNcVgMC0B0OuYSQA===",
        "153428796298675431467931582386152974972843165514769823639517248745286319821394657",
    ),
    // "Alien" by Lisztes (Whispers, Thermo)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QEEsIYA7EVAQwFc0ALAewCcEQAZCMKNGMckRqjjAw0LAJIkABGAAOFAMYxJJepPokl8ilNowKjSQE96VAHTnJAd1ocZMRqYA6JZwDkmAWwpZJAZSoAJvQA1lSSAkKSFDIyWIamkgCiCrTh9JbIkvL0WFQeUtoBkgDMAB7FkgBG9KVZ6mgUECRgknryqSR5lfaSAGaM9B6SAIySaKqIraUK2IZqJIpOLiQA4vZeUgDqNrI9/kGh4YI8UTFxCQAqlqqKWFgt2SQa8txFlXMUkkQakgAUMJhdAYAOaMGBzJiSUEwUgASkkHioYDQkloFAAbkpPgEIL1evZSIo1L0+hBMWoDB4mEpumhLDCpHQAQYccDMGAls4LrpJE0YABHKjeTBzSDA5pVET00hja5ZGB3FpgBiWKw2drzTT1RoSplfdL2AD0NmBQMkrMwpj4oIgAQQAG17aA2ZiSAAFQkQLAAWX0wV48E6dwAvshnWTSB6Fl7fYx/Qgg1hQ+HXVH5DG/QHE8mQC7I56fZmE4Ik2HcxH3QXY/HAyWc3nK9HC3Gs3Wyw20xmW8WQ+2K53mzXs33U1Wi7WQwBdZBO8ujpvV1u9lP5hfj4crxvpwdL0ubgeLnt7uer7eHifHjtj7sX+v969Dtv7h+7u/zs/ruvT2dXtc3jcnluXaPsugEHp+oG/h+/5PiA6LeFQuDDKgDYIGgAgwCh95/iBl7YdBuFvqewGviOxE7keRFARRt7fs+OGkfRBGMWBL6UWR1HngBUEkexTG8beHHgTBkH4QJ3FiTR2Z0axDF8bJzHyfBuS4CggFoRhWHvuJsE8VJumSVxBnafpoHKYhCAAOxaaQGmITZnEQXhJlGaJLlOcGMl6a5znkT5VHCYRQlsYJ/Gmb5jkiRFgUsd5HnBXJtEzmF/kJYpoUKTpbl+fFoDmapDl2ZhmXhQFIUSe5UVlYlFU5VVXmGblJWpSlTVxVVaVZdF5XGXVQWtR1A2EQ1lX9c1bWNYN41Te1Y2zbFk1zYtC2ja+k7TugQJUh4Ij2A6oDfDwDr2iAABKABMADCxR8KdwzXSA62eag1i2PYAazodH0nXdl3DLd93nY9k45l9x1nfdN2oL9AAswOg3y30Q5dABsAOXZZ8NlmD8COsjAAc6OIFjB2I+Dp0w39t3FFT0NXUD0M01DZ2UzdT3Y2TuM/VdmOMxjt2U7zLOXYT0OU8T7OkxoSOnZZl0M2dcv/dD+O02dqtA5LIA43jp2q8rZ2IGrp1G5rIMc9L5Oq3D0NG3DWs6z9qto7bqMk9rnO65TACst3e5dvvQyjAfu47hv8yrEeK1Hesi7dRvE5HifRxLIMbdwpSiLjoC3PcDpnVdzO/WzqD5SwAB8fC9PUl0sAAxAADE3zd8JAsAIA3piWd7lAkMCOAIIgDfPSAOJgBQlQ4AEWD0Gy8gOunGFaCQOIBBQ3BgPQMgYOoH0bYd+0e5bXPIwbv1m6gJjYHytd4HXKMN5dDcP3wli2nQHemMUqAcK4MCWJdXe6EdRZ3QohBGx9daQ3RvbDaV9Dq3xAPfR+z8G6v3frQT+38QC/3/oA5owCmigIwhAo6J9fou2Rpjdal8aAIPrg/J+L8XoYKwT/MAf8AFAMYCAoqpCZb3VFsjVOtDr4aEQcgphaCWEBA/vATu2DcFcIITwohfCLZkK9sbGmZ96bUwemLB6NCQDwJvgwlBzCQBv1kZg+RX92GcPwciVRJBiHgI0TLHm+ihYUxjpTIRviREmLoWYu+jDUHoJsWwnBHC8HcN4fAMBMB+HkzlgrWWxt9a3Q1sDUR9CwkWOkVY1hdjFGxOUc4hJSSUnkKya7M+ptcnBLETACR4TLHWLkQohxcSVFVJIR4q2l0bbh1gXk0JSD2lFM6bY7pMTHHxLUYkgZUtNFOzdq7NGxjTHiPMVIyJXT7HzN6ZUpZ1TBnkJ9n7EOQcQ7bJCbsgp+yZGHLKQsvpZyVlHzWeHHxqsfFyz+XHV2ydY6grlkEnZrS9kRJebMo5SinGENcXwkGQA==",
        "497258316512936478836714925381675294659423781724189563163592847945867132278341659",
    ),
    // Entropic Lines 101 by jeremydover & Raumplaner (Entropic Lines)
    (
        "N4IgzglgXgpiBcBOANCALhNAbO8QFEA7NAJwHsAHCAYwAIAZCQmMWgRgAY2RUBDAVzQALMiQQgAVjBIwAtgE8AJmQBu02gDJaAJQGyKWXszGoS/HGBhpxAOVGzeWWgGV+ygNb9aZi7V4UDeQA6AB1CMKJSShoGJhZ4WgBBQnlaSzRaMgAzWmEZGDSYAEd+GGIIR1pqGCwsVkcyQgBzP0JaMqiqOiw42ll+MAzqRrReJj9aLDIAd1pFCCbMWgAKNgBaAGYASmQJ2QhFRRw5haXlgBY1gDYt1sUJoQWhE8WM5YB2NcQtoNoAEVOaFYDlSMgoMF4GUaEx6zF2EByjim0xg9wARqkyMJ1D4WL8eCAmiQDggANqk4AAX2QVJp1NpDPpTLpAF1kBTmYy6dyuVS2RyeZz6SAVI5Sgg2KhFmpCAhSKUhaz2bzFQyRWLcFcpRAZXKzDAhfyVYKTYyjZz1VhxUhtbr4PKDaaLaKrbgABy2sp6hVKimW63nT2y+361VhwXmp2m/24ABMQe9jrNyvDxrNbJAHXIXVhuD9ubAZNJIG07wAwhsCdormXY1Wa9xUNoAKxlxsl85tqsbLtN2O9ktsLsslnCgtFkutytNzt1mcV7u1xfTkv9ueD4ejmkgcfwcklnvnKudo9N1unks1i+lsvX8vNqtussPptP6+IW9Vj8r7Qf9e/gdtCff9y0rEcxziQs92LbQh2vftryHF9V2fKshyuNCy3eTC3UwxAQHA7dd33AD8NfMsyJLctKOrCiq1bGjO0YstcKbHtsL7Fi8IIrdQGImDWw4y8sKrcshKArimw/fDCL4yCJ20HtkO0TtlM7DCzzLDTJ1Qpsa20lsRPAjNczJOTmCgkjQPrJc9MA1t2xUwCe0c/tHKHbgR1QMhBFzMtxAAYgAMSCssy0SRICWmA5hAQDggljZtUCychZDLRpBhIMZiHESJsxiRhmBACCLIUqdj1sjsFzYyrFOqlD/w8njvN8uJ/LwYLQvCyLUGixRYvgeLEuS1L0sITLsusPA8uiOhCrgEqWAUw8Kuvc8bLvT8m3vR9dJLN8vy2ktv0O/8P0c4DRIXLyQB87A2sCkKwoiqKYqEOKEqSkAUrINKMtISbcuIfK5riYqiPk6CN3go7YL27R+2U9DMPEodWI3GSMzuvzHq6l7erej7hu+0b/qypgpoIYHZtiIrFssmDpN2mjqJsmiGIq5j0bq8T+25odMZa+7mHakBOuenqQD6gahq+n6/vGgGKaBzoCrB+mypEuzxLE3buaZm7sYejqnu617+vewbPpG36xom5XpuprpaYWiHSqhuq1Ph9T6K033lP033sMN1qRdxiXzZl62SdtsnAcd1XQbp0cgA===",
        "195482763842367195637591428284935617763128954519674382428716539951843276376259841",
    ),
];

#[test]
fn real_fpuzzles_links_are_read_and_solved_to_their_known_solutions() {
    let dir = ScratchDir::new("fpuzzles-real");
    let links: String = REAL_LINKS
        .iter()
        .map(|(data, _)| format!("https://f-puzzles.com/?load={data}\n"))
        .collect();
    let file = dir.join("links.txt");
    std::fs::write(&file, &links).unwrap();
    let file = file.to_str().unwrap();
    let checked = xcover(&["sudoku", "check", file], "");
    assert!(checked.status.success(), "{}", err(&checked));
    assert_eq!(out(&checked), "unique\n".repeat(REAL_LINKS.len()));
    let solved = xcover(&["sudoku", "solve", "--format", "line", file], "");
    assert!(solved.status.success(), "{}", err(&solved));
    let expected: String = REAL_LINKS.iter().map(|(_, s)| format!("{s}\n")).collect();
    assert_eq!(out(&solved), expected);
    // A bare compressed puzzle (the `load=` value alone) on standard input reads the same.
    let (data, solution) = REAL_LINKS[5];
    let piped = xcover(&["sudoku", "solve", "--format", "line", "-"], data);
    assert_eq!(out(&piped), format!("{solution}\n"), "{}", err(&piped));
}

/// The rules each real variant link is read with: none left out, none invented.
#[test]
fn real_variant_links_are_read_with_their_rules() {
    let names: Vec<String> = REAL_LINKS[5..]
        .iter()
        .map(|(data, _)| {
            let entry = fpuzzles::read(data).remove(0).unwrap();
            entry.puzzle.rules.names().join(" ")
        })
        .collect();
    assert_eq!(
        names,
        [
            "rows columns boxes anti-knight palindromes kropki negative",
            "rows columns boxes anti-knight cages",
            "rows columns boxes thermometers kropki",
            "rows columns boxes diagonals kropki xv negative",
            "rows columns boxes greater-than",
            "rows columns regions kropki",
            "rows columns boxes renban kropki",
            "rows columns boxes thermometers whispers",
            "rows columns boxes entropic",
        ]
    );
}

/// Every shipped variant (the project's own file and the shared collections) that f-puzzles
/// can draw is written as a link, read back as the same puzzle, and solved to the same
/// solution through the command line; the JSON object form reads the same.
#[test]
fn shipped_puzzles_go_out_as_links_and_come_back_the_same() {
    let mut files = vec!["data/sudoku/variants.txt".to_string()];
    for name in [
        "x",
        "jigsaw",
        "windoku",
        "killer",
        "antiknight",
        "nonconsecutive",
    ] {
        files.push(format!("../shared/data/variants/{name}.txt"));
    }
    let dir = ScratchDir::new("fpuzzles-round-trip");
    let mut written = 0;
    for path in &files {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue; // the shared folder is absent outside this workplace
        };
        for entry in text::read(&source).into_iter().map(Result::unwrap).take(5) {
            let puzzle = &entry.puzzle;
            let Ok(link) = fpuzzles::link(puzzle, entry.solution.as_deref()) else {
                continue;
            };
            let back = fpuzzles::read(&link).remove(0).unwrap();
            assert_eq!(back.puzzle.givens, puzzle.givens, "{path}: {}", puzzle.id);
            assert_eq!(back.solution, entry.solution, "{path}: {}", puzzle.id);
            let json = |p: &xcover::sudoku::variant::Puzzle| {
                let mut json = fpuzzles::to_json(p, None).unwrap();
                json.as_object_mut().unwrap().remove("title");
                json
            };
            assert_eq!(json(&back.puzzle), json(puzzle), "{path}: {}", puzzle.id);
            // Through the command line, as a link and as the JSON object f-puzzles saves.
            let object = fpuzzles::to_json(puzzle, entry.solution.as_deref()).unwrap();
            let object_file = dir.join("object.json");
            std::fs::write(&object_file, object.to_string()).unwrap();
            for (input, file) in [(link.as_str(), "-"), ("", object_file.to_str().unwrap())] {
                let run = xcover(&["sudoku", "check", file], input);
                assert_eq!(
                    out(&run),
                    "unique\n",
                    "{path}: {}: {}",
                    puzzle.id,
                    err(&run)
                );
                assert!(run.status.success(), "{path}: {}", err(&run));
            }
            written += 1;
        }
    }
    assert!(written >= 5, "only {written} puzzles were written");
}

/// `solve --format fpuzzles` writes each puzzle with its solution as a link, plain grids
/// too, and the links read back to the same answers.
#[test]
fn solve_writes_links_that_read_back() {
    let run = xcover(
        &[
            "sudoku",
            "solve",
            "--format",
            "fpuzzles",
            "data/sudoku/variants.txt",
            "data/sudoku/post000.txt",
        ],
        "",
    );
    assert!(run.status.success(), "{}", err(&run));
    let links = out(&run);
    assert_eq!(links.lines().count(), 6, "{links}");
    assert!(
        links
            .lines()
            .all(|l| l.starts_with("https://f-puzzles.com/?load="))
    );
    let back = xcover(&["sudoku", "solve", "--format", "line", "-"], &links);
    let direct = xcover(
        &[
            "sudoku",
            "solve",
            "--format",
            "line",
            "data/sudoku/variants.txt",
            "data/sudoku/post000.txt",
        ],
        "",
    );
    assert_eq!(out(&back), out(&direct), "{}", err(&back));
}

/// What the reader cannot take is refused with its kind, naming the constraint or cell.
#[test]
fn what_cannot_be_read_is_refused_by_name() {
    let object = |extra: &str| {
        let row = format!("[{}]", ["{}"; 4].join(","));
        format!(
            r#"{{"size": 4, "grid": [{}]{extra}}}"#,
            vec![row; 4].join(",")
        )
    };
    let error = |text: &str| fpuzzles::read(text).remove(0).unwrap_err();
    let slow = error(&object(
        r#", "slowthermometer": [{"lines": [["R1C1", "R1C2"]]}]"#,
    ));
    assert_eq!(slow.kind, FaultKind::Unsupported);
    assert!(
        slow.message.contains("'slowthermometer'"),
        "{}",
        slow.message
    );
    let negative = error(&object(r#", "negative": ["difference"]"#));
    assert_eq!(negative.kind, FaultKind::Unsupported);
    let single = error(&object(r#", "diagonal+": true"#));
    assert!(
        single.message.contains("single diagonal"),
        "{}",
        single.message
    );
    let cell = error(&object(
        r#", "thermometer": [{"lines": [["R1C1", "R9C9"]]}]"#,
    ));
    assert_eq!(cell.kind, FaultKind::Value);
    assert!(cell.message.contains("'R9C9'"), "{}", cell.message);
    // A cage without a value is a cage without a sum, beside the cages with sums; written
    // back, both are f-puzzles' killer cages again.
    let caged = fpuzzles::read(&object(
        r#", "killercage": [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2"], "value": "7"}]"#,
    ))
    .remove(0)
    .unwrap()
    .puzzle;
    assert_eq!(
        caged.rules.names(),
        ["rows", "columns", "boxes", "cages", "sumless-cages"]
    );
    let link = fpuzzles::link(&caged, None).unwrap();
    assert_eq!(
        fpuzzles::read(&link).remove(0).unwrap().puzzle.rules,
        caged.rules
    );
    // Odd and even cells are pencilmarks; minimum and maximum cells greater-than signs to
    // their neighbours that are not of their kind; disjoint groups are units.
    let cells = fpuzzles::read(&object(
        r#", "odd": [{"cell": "R1C1"}], "even": [{"cell": "R4C4"}], "maximum": [{"cell": "R2C2"}, {"cell": "R2C3"}], "disjointgroups": true"#,
    ))
    .remove(0)
    .unwrap()
    .puzzle;
    assert_eq!(
        cells.rules.names(),
        [
            "rows",
            "columns",
            "boxes",
            "pencilmarks",
            "disjoint-groups",
            "greater-than"
        ]
    );
    let allowed = cells.rules.allowed();
    let holds = |cell: usize, v: usize| allowed[cell * 4 + v - 1];
    assert!(holds(0, 1) && holds(0, 3) && !holds(0, 2) && !holds(0, 4));
    assert!(holds(15, 2) && holds(15, 4) && !holds(15, 1) && !holds(15, 3));
    // r2c2 and r2c3 are each larger than their three other neighbours, not than each other.
    let signs: Vec<Vec<(usize, usize)>> = cells
        .rules
        .constraints()
        .iter()
        .find_map(|constraint| match constraint {
            Constraint::GreaterThan(signs) => Some(signs.clues.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(signs.len(), 6, "{signs:?}");
    assert!(
        signs
            .iter()
            .all(|clue| clue[0] == (1, 1) || clue[0] == (1, 2))
    );
    assert!(!signs.contains(&vec![(1, 1), (1, 2)]), "{signs:?}");
    // Empty lists and false flags are no rule at all; cosmetic keys are passed over.
    let plain = fpuzzles::read(&object(
        r#", "arrow": [], "antiking": false, "title": "t", "text": [{"cells": ["R1C1"], "value": "hi"}]"#,
    ));
    assert_eq!(
        plain[0].as_ref().unwrap().puzzle.rules.names(),
        ["rows", "columns", "boxes"]
    );
    // Links whose data is not LZString, or that would expand too far.
    assert_eq!(
        error("https://f-puzzles.com/?load=N4Ig!!!!").kind,
        FaultKind::Layout
    );
    let long = format!(
        "https://f-puzzles.com/?load=N4Ig{}",
        "A".repeat(fpuzzles::MAX_COMPRESSED_CHARS)
    );
    assert!(error(&long).message.contains("at most"));
    // Through the command line: the file, line and constraint are named.
    let run = xcover(
        &["sudoku", "check", "-"],
        &object(r#", "nabner": [{"lines": [["R1C1", "R1C2"]]}]"#),
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(
        err(&run).contains("<stdin>:1: the f-puzzles constraint 'nabner'"),
        "{}",
        err(&run)
    );
}

/// `generate --format fpuzzles` writes links of puzzles with one solution, plain and variant,
/// that read back with their solutions; other formats are refused for variants.
#[test]
fn generated_puzzles_are_written_as_links() {
    let plain = xcover(
        &[
            "sudoku", "generate", "--size", "6", "--count", "2", "--seed", "3", "--format",
            "fpuzzles",
        ],
        "",
    );
    let variant = xcover(
        &[
            "sudoku",
            "generate",
            "--variant",
            "x",
            "--size",
            "6",
            "--count",
            "2",
            "--seed",
            "3",
            "--format",
            "fpuzzles",
        ],
        "",
    );
    for run in [&plain, &variant] {
        assert!(run.status.success(), "{}", err(run));
        let links = out(run);
        assert_eq!(links.lines().count(), 2, "{links}");
        for link in links.lines() {
            let entry = fpuzzles::read(link).remove(0).unwrap();
            assert!(entry.solution.is_some());
        }
        // Each is unique, and its stated solution is the one found.
        let checked = xcover(&["sudoku", "check", "-"], &links);
        assert_eq!(out(&checked), "unique\nunique\n", "{}", err(&checked));
        assert!(checked.status.success());
    }
    let names = fpuzzles::read(out(&variant).lines().next().unwrap())
        .remove(0)
        .unwrap()
        .puzzle
        .rules
        .names();
    assert_eq!(names, ["rows", "columns", "boxes", "diagonals"]);
    // Grid layouts are for classic grids only.
    let refused = xcover(
        &["sudoku", "generate", "--variant", "x", "--format", "line"],
        "",
    );
    assert_eq!(refused.status.code(), Some(2), "{}", err(&refused));
    // A JSON record of a variant carries its file, which reads back as a unique puzzle.
    let args = ["sudoku", "generate", "--variant", "killer", "--size", "6"];
    let json = xcover(
        &[&args[..], &["--seed", "4", "--format", "json"]].concat(),
        "",
    );
    assert!(json.status.success(), "{}", err(&json));
    let record: serde_json::Value = serde_json::from_str(out(&json).trim()).unwrap();
    assert_eq!(
        record["rules"],
        serde_json::json!(["rows", "columns", "boxes", "cages"])
    );
    let file = record["file"].as_str().unwrap();
    let checked = xcover(&["sudoku", "check", "-"], file);
    assert_eq!(out(&checked), "unique\n", "{file}\n{}", err(&checked));
}
