import ContactsLedger

// The framework's label constants, each the value of the `Label` constant of the same name.

/// The framework's `CNLabelHome`.
public let CNLabelHome: String = Label.home
/// The framework's `CNLabelWork`.
public let CNLabelWork: String = Label.work
/// The framework's `CNLabelSchool`.
public let CNLabelSchool: String = Label.school
/// The framework's `CNLabelOther`.
public let CNLabelOther: String = Label.other
/// The framework's `CNLabelEmailiCloud`.
public let CNLabelEmailiCloud: String = Label.emailiCloud
/// The framework's `CNLabelURLAddressHomePage`.
public let CNLabelURLAddressHomePage: String = Label.urlAddressHomePage
/// The framework's `CNLabelDateAnniversary`.
public let CNLabelDateAnniversary: String = Label.dateAnniversary
/// The framework's `CNLabelPhoneNumberiPhone`.
public let CNLabelPhoneNumberiPhone: String = Label.phoneNumberiPhone
/// The framework's `CNLabelPhoneNumberAppleWatch`.
public let CNLabelPhoneNumberAppleWatch: String = Label.phoneNumberAppleWatch
/// The framework's `CNLabelPhoneNumberMobile`.
public let CNLabelPhoneNumberMobile: String = Label.phoneNumberMobile
/// The framework's `CNLabelPhoneNumberMain`.
public let CNLabelPhoneNumberMain: String = Label.phoneNumberMain
/// The framework's `CNLabelPhoneNumberHomeFax`.
public let CNLabelPhoneNumberHomeFax: String = Label.phoneNumberHomeFax
/// The framework's `CNLabelPhoneNumberWorkFax`.
public let CNLabelPhoneNumberWorkFax: String = Label.phoneNumberWorkFax
/// The framework's `CNLabelPhoneNumberOtherFax`.
public let CNLabelPhoneNumberOtherFax: String = Label.phoneNumberOtherFax
/// The framework's `CNLabelPhoneNumberPager`.
public let CNLabelPhoneNumberPager: String = Label.phoneNumberPager
/// The framework's `CNLabelContactRelationAssistant`.
public let CNLabelContactRelationAssistant: String = Label.contactRelationAssistant
/// The framework's `CNLabelContactRelationBrother`.
public let CNLabelContactRelationBrother: String = Label.contactRelationBrother
/// The framework's `CNLabelContactRelationChild`.
public let CNLabelContactRelationChild: String = Label.contactRelationChild
/// The framework's `CNLabelContactRelationFather`.
public let CNLabelContactRelationFather: String = Label.contactRelationFather
/// The framework's `CNLabelContactRelationFriend`.
public let CNLabelContactRelationFriend: String = Label.contactRelationFriend
/// The framework's `CNLabelContactRelationManager`.
public let CNLabelContactRelationManager: String = Label.contactRelationManager
/// The framework's `CNLabelContactRelationMother`.
public let CNLabelContactRelationMother: String = Label.contactRelationMother
/// The framework's `CNLabelContactRelationParent`.
public let CNLabelContactRelationParent: String = Label.contactRelationParent
/// The framework's `CNLabelContactRelationPartner`.
public let CNLabelContactRelationPartner: String = Label.contactRelationPartner
/// The framework's `CNLabelContactRelationSister`.
public let CNLabelContactRelationSister: String = Label.contactRelationSister
/// The framework's `CNLabelContactRelationSpouse`.
public let CNLabelContactRelationSpouse: String = Label.contactRelationSpouse
/// The framework's `CNLabelContactRelationDaughter`.
public let CNLabelContactRelationDaughter: String = Label.contactRelationDaughter
/// The framework's `CNLabelContactRelationSon`.
public let CNLabelContactRelationSon: String = Label.contactRelationSon
/// The framework's `CNLabelContactRelationAunt`.
public let CNLabelContactRelationAunt: String = Label.contactRelationAunt
/// The framework's `CNLabelContactRelationAuntFathersBrothersWife`.
public let CNLabelContactRelationAuntFathersBrothersWife: String = Label.contactRelationAuntFathersBrothersWife
/// The framework's `CNLabelContactRelationAuntFathersElderBrothersWife`.
public let CNLabelContactRelationAuntFathersElderBrothersWife: String = Label
    .contactRelationAuntFathersElderBrothersWife
/// The framework's `CNLabelContactRelationAuntFathersElderSister`.
public let CNLabelContactRelationAuntFathersElderSister: String = Label.contactRelationAuntFathersElderSister
/// The framework's `CNLabelContactRelationAuntFathersSister`.
public let CNLabelContactRelationAuntFathersSister: String = Label.contactRelationAuntFathersSister
/// The framework's `CNLabelContactRelationAuntFathersYoungerBrothersWife`.
public let CNLabelContactRelationAuntFathersYoungerBrothersWife: String = Label
    .contactRelationAuntFathersYoungerBrothersWife
/// The framework's `CNLabelContactRelationAuntFathersYoungerSister`.
public let CNLabelContactRelationAuntFathersYoungerSister: String = Label.contactRelationAuntFathersYoungerSister
/// The framework's `CNLabelContactRelationAuntMothersBrothersWife`.
public let CNLabelContactRelationAuntMothersBrothersWife: String = Label.contactRelationAuntMothersBrothersWife
/// The framework's `CNLabelContactRelationAuntMothersElderSister`.
public let CNLabelContactRelationAuntMothersElderSister: String = Label.contactRelationAuntMothersElderSister
/// The framework's `CNLabelContactRelationAuntMothersSister`.
public let CNLabelContactRelationAuntMothersSister: String = Label.contactRelationAuntMothersSister
/// The framework's `CNLabelContactRelationAuntMothersYoungerSister`.
public let CNLabelContactRelationAuntMothersYoungerSister: String = Label.contactRelationAuntMothersYoungerSister
/// The framework's `CNLabelContactRelationAuntParentsElderSister`.
public let CNLabelContactRelationAuntParentsElderSister: String = Label.contactRelationAuntParentsElderSister
/// The framework's `CNLabelContactRelationAuntParentsSister`.
public let CNLabelContactRelationAuntParentsSister: String = Label.contactRelationAuntParentsSister
/// The framework's `CNLabelContactRelationAuntParentsYoungerSister`.
public let CNLabelContactRelationAuntParentsYoungerSister: String = Label.contactRelationAuntParentsYoungerSister
/// The framework's `CNLabelContactRelationBoyfriend`.
public let CNLabelContactRelationBoyfriend: String = Label.contactRelationBoyfriend
/// The framework's `CNLabelContactRelationBrotherInLaw`.
public let CNLabelContactRelationBrotherInLaw: String = Label.contactRelationBrotherInLaw
/// The framework's `CNLabelContactRelationBrotherInLawElderSistersHusband`.
public let CNLabelContactRelationBrotherInLawElderSistersHusband: String = Label
    .contactRelationBrotherInLawElderSistersHusband
/// The framework's `CNLabelContactRelationBrotherInLawHusbandsBrother`.
public let CNLabelContactRelationBrotherInLawHusbandsBrother: String = Label.contactRelationBrotherInLawHusbandsBrother
/// The framework's `CNLabelContactRelationBrotherInLawHusbandsSistersHusband`.
public let CNLabelContactRelationBrotherInLawHusbandsSistersHusband: String = Label
    .contactRelationBrotherInLawHusbandsSistersHusband
/// The framework's `CNLabelContactRelationBrotherInLawSistersHusband`.
public let CNLabelContactRelationBrotherInLawSistersHusband: String = Label.contactRelationBrotherInLawSistersHusband
/// The framework's `CNLabelContactRelationBrotherInLawSpousesBrother`.
public let CNLabelContactRelationBrotherInLawSpousesBrother: String = Label.contactRelationBrotherInLawSpousesBrother
/// The framework's `CNLabelContactRelationBrotherInLawWifesBrother`.
public let CNLabelContactRelationBrotherInLawWifesBrother: String = Label.contactRelationBrotherInLawWifesBrother
/// The framework's `CNLabelContactRelationBrotherInLawWifesSistersHusband`.
public let CNLabelContactRelationBrotherInLawWifesSistersHusband: String = Label
    .contactRelationBrotherInLawWifesSistersHusband
/// The framework's `CNLabelContactRelationBrotherInLawYoungerSistersHusband`.
public let CNLabelContactRelationBrotherInLawYoungerSistersHusband: String = Label
    .contactRelationBrotherInLawYoungerSistersHusband
/// The framework's `CNLabelContactRelationChildInLaw`.
public let CNLabelContactRelationChildInLaw: String = Label.contactRelationChildInLaw
/// The framework's `CNLabelContactRelationCoBrotherInLaw`.
public let CNLabelContactRelationCoBrotherInLaw: String = Label.contactRelationCoBrotherInLaw
/// The framework's `CNLabelContactRelationCoFatherInLaw`.
public let CNLabelContactRelationCoFatherInLaw: String = Label.contactRelationCoFatherInLaw
/// The framework's `CNLabelContactRelationCoMotherInLaw`.
public let CNLabelContactRelationCoMotherInLaw: String = Label.contactRelationCoMotherInLaw
/// The framework's `CNLabelContactRelationCoParentInLaw`.
public let CNLabelContactRelationCoParentInLaw: String = Label.contactRelationCoParentInLaw
/// The framework's `CNLabelContactRelationCoSiblingInLaw`.
public let CNLabelContactRelationCoSiblingInLaw: String = Label.contactRelationCoSiblingInLaw
/// The framework's `CNLabelContactRelationCoSisterInLaw`.
public let CNLabelContactRelationCoSisterInLaw: String = Label.contactRelationCoSisterInLaw
/// The framework's `CNLabelContactRelationColleague`.
public let CNLabelContactRelationColleague: String = Label.contactRelationColleague
/// The framework's `CNLabelContactRelationCousin`.
public let CNLabelContactRelationCousin: String = Label.contactRelationCousin
/// The framework's `CNLabelContactRelationCousinFathersBrothersDaughter`.
public let CNLabelContactRelationCousinFathersBrothersDaughter: String = Label
    .contactRelationCousinFathersBrothersDaughter
/// The framework's `CNLabelContactRelationCousinFathersBrothersSon`.
public let CNLabelContactRelationCousinFathersBrothersSon: String = Label.contactRelationCousinFathersBrothersSon
/// The framework's `CNLabelContactRelationCousinFathersSistersDaughter`.
public let CNLabelContactRelationCousinFathersSistersDaughter: String = Label
    .contactRelationCousinFathersSistersDaughter
/// The framework's `CNLabelContactRelationCousinFathersSistersSon`.
public let CNLabelContactRelationCousinFathersSistersSon: String = Label.contactRelationCousinFathersSistersSon
/// The framework's `CNLabelContactRelationCousinGrandparentsSiblingsChild`.
public let CNLabelContactRelationCousinGrandparentsSiblingsChild: String = Label
    .contactRelationCousinGrandparentsSiblingsChild
/// The framework's `CNLabelContactRelationCousinGrandparentsSiblingsDaughter`.
public let CNLabelContactRelationCousinGrandparentsSiblingsDaughter: String = Label
    .contactRelationCousinGrandparentsSiblingsDaughter
/// The framework's `CNLabelContactRelationCousinGrandparentsSiblingsSon`.
public let CNLabelContactRelationCousinGrandparentsSiblingsSon: String = Label
    .contactRelationCousinGrandparentsSiblingsSon
/// The framework's `CNLabelContactRelationCousinMothersBrothersDaughter`.
public let CNLabelContactRelationCousinMothersBrothersDaughter: String = Label
    .contactRelationCousinMothersBrothersDaughter
/// The framework's `CNLabelContactRelationCousinMothersBrothersSon`.
public let CNLabelContactRelationCousinMothersBrothersSon: String = Label.contactRelationCousinMothersBrothersSon
/// The framework's `CNLabelContactRelationCousinMothersSistersDaughter`.
public let CNLabelContactRelationCousinMothersSistersDaughter: String = Label
    .contactRelationCousinMothersSistersDaughter
/// The framework's `CNLabelContactRelationCousinMothersSistersSon`.
public let CNLabelContactRelationCousinMothersSistersSon: String = Label.contactRelationCousinMothersSistersSon
/// The framework's `CNLabelContactRelationCousinOrSiblingsChild`.
public let CNLabelContactRelationCousinOrSiblingsChild: String = Label.contactRelationCousinOrSiblingsChild
/// The framework's `CNLabelContactRelationCousinParentsSiblingsChild`.
public let CNLabelContactRelationCousinParentsSiblingsChild: String = Label.contactRelationCousinParentsSiblingsChild
/// The framework's `CNLabelContactRelationCousinParentsSiblingsDaughter`.
public let CNLabelContactRelationCousinParentsSiblingsDaughter: String = Label
    .contactRelationCousinParentsSiblingsDaughter
/// The framework's `CNLabelContactRelationCousinParentsSiblingsSon`.
public let CNLabelContactRelationCousinParentsSiblingsSon: String = Label.contactRelationCousinParentsSiblingsSon
/// The framework's `CNLabelContactRelationDaughterInLaw`.
public let CNLabelContactRelationDaughterInLaw: String = Label.contactRelationDaughterInLaw
/// The framework's `CNLabelContactRelationDaughterInLawOrSisterInLaw`.
public let CNLabelContactRelationDaughterInLawOrSisterInLaw: String = Label.contactRelationDaughterInLawOrSisterInLaw
/// The framework's `CNLabelContactRelationDaughterInLawOrStepdaughter`.
public let CNLabelContactRelationDaughterInLawOrStepdaughter: String = Label.contactRelationDaughterInLawOrStepdaughter
/// The framework's `CNLabelContactRelationElderBrother`.
public let CNLabelContactRelationElderBrother: String = Label.contactRelationElderBrother
/// The framework's `CNLabelContactRelationElderBrotherInLaw`.
public let CNLabelContactRelationElderBrotherInLaw: String = Label.contactRelationElderBrotherInLaw
/// The framework's `CNLabelContactRelationElderCousin`.
public let CNLabelContactRelationElderCousin: String = Label.contactRelationElderCousin
/// The framework's `CNLabelContactRelationElderCousinFathersBrothersDaughter`.
public let CNLabelContactRelationElderCousinFathersBrothersDaughter: String = Label
    .contactRelationElderCousinFathersBrothersDaughter
/// The framework's `CNLabelContactRelationElderCousinFathersBrothersSon`.
public let CNLabelContactRelationElderCousinFathersBrothersSon: String = Label
    .contactRelationElderCousinFathersBrothersSon
/// The framework's `CNLabelContactRelationElderCousinFathersSistersDaughter`.
public let CNLabelContactRelationElderCousinFathersSistersDaughter: String = Label
    .contactRelationElderCousinFathersSistersDaughter
/// The framework's `CNLabelContactRelationElderCousinFathersSistersSon`.
public let CNLabelContactRelationElderCousinFathersSistersSon: String = Label
    .contactRelationElderCousinFathersSistersSon
/// The framework's `CNLabelContactRelationElderCousinMothersBrothersDaughter`.
public let CNLabelContactRelationElderCousinMothersBrothersDaughter: String = Label
    .contactRelationElderCousinMothersBrothersDaughter
/// The framework's `CNLabelContactRelationElderCousinMothersBrothersSon`.
public let CNLabelContactRelationElderCousinMothersBrothersSon: String = Label
    .contactRelationElderCousinMothersBrothersSon
/// The framework's `CNLabelContactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter`.
public let CNLabelContactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter: String = Label
    .contactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter
/// The framework's `CNLabelContactRelationElderCousinMothersSiblingsSonOrFathersSistersSon`.
public let CNLabelContactRelationElderCousinMothersSiblingsSonOrFathersSistersSon: String = Label
    .contactRelationElderCousinMothersSiblingsSonOrFathersSistersSon
/// The framework's `CNLabelContactRelationElderCousinMothersSistersDaughter`.
public let CNLabelContactRelationElderCousinMothersSistersDaughter: String = Label
    .contactRelationElderCousinMothersSistersDaughter
/// The framework's `CNLabelContactRelationElderCousinMothersSistersSon`.
public let CNLabelContactRelationElderCousinMothersSistersSon: String = Label
    .contactRelationElderCousinMothersSistersSon
/// The framework's `CNLabelContactRelationElderCousinParentsSiblingsDaughter`.
public let CNLabelContactRelationElderCousinParentsSiblingsDaughter: String = Label
    .contactRelationElderCousinParentsSiblingsDaughter
/// The framework's `CNLabelContactRelationElderCousinParentsSiblingsSon`.
public let CNLabelContactRelationElderCousinParentsSiblingsSon: String = Label
    .contactRelationElderCousinParentsSiblingsSon
/// The framework's `CNLabelContactRelationElderSibling`.
public let CNLabelContactRelationElderSibling: String = Label.contactRelationElderSibling
/// The framework's `CNLabelContactRelationElderSiblingInLaw`.
public let CNLabelContactRelationElderSiblingInLaw: String = Label.contactRelationElderSiblingInLaw
/// The framework's `CNLabelContactRelationElderSister`.
public let CNLabelContactRelationElderSister: String = Label.contactRelationElderSister
/// The framework's `CNLabelContactRelationElderSisterInLaw`.
public let CNLabelContactRelationElderSisterInLaw: String = Label.contactRelationElderSisterInLaw
/// The framework's `CNLabelContactRelationEldestBrother`.
public let CNLabelContactRelationEldestBrother: String = Label.contactRelationEldestBrother
/// The framework's `CNLabelContactRelationEldestSister`.
public let CNLabelContactRelationEldestSister: String = Label.contactRelationEldestSister
/// The framework's `CNLabelContactRelationFatherInLaw`.
public let CNLabelContactRelationFatherInLaw: String = Label.contactRelationFatherInLaw
/// The framework's `CNLabelContactRelationFatherInLawHusbandsFather`.
public let CNLabelContactRelationFatherInLawHusbandsFather: String = Label.contactRelationFatherInLawHusbandsFather
/// The framework's `CNLabelContactRelationFatherInLawOrStepfather`.
public let CNLabelContactRelationFatherInLawOrStepfather: String = Label.contactRelationFatherInLawOrStepfather
/// The framework's `CNLabelContactRelationFatherInLawWifesFather`.
public let CNLabelContactRelationFatherInLawWifesFather: String = Label.contactRelationFatherInLawWifesFather
/// The framework's `CNLabelContactRelationFemaleCousin`.
public let CNLabelContactRelationFemaleCousin: String = Label.contactRelationFemaleCousin
/// The framework's `CNLabelContactRelationFemaleFriend`.
public let CNLabelContactRelationFemaleFriend: String = Label.contactRelationFemaleFriend
/// The framework's `CNLabelContactRelationFemalePartner`.
public let CNLabelContactRelationFemalePartner: String = Label.contactRelationFemalePartner
/// The framework's `CNLabelContactRelationGirlfriend`.
public let CNLabelContactRelationGirlfriend: String = Label.contactRelationGirlfriend
/// The framework's `CNLabelContactRelationGirlfriendOrBoyfriend`.
public let CNLabelContactRelationGirlfriendOrBoyfriend: String = Label.contactRelationGirlfriendOrBoyfriend
/// The framework's `CNLabelContactRelationGrandaunt`.
public let CNLabelContactRelationGrandaunt: String = Label.contactRelationGrandaunt
/// The framework's `CNLabelContactRelationGrandchild`.
public let CNLabelContactRelationGrandchild: String = Label.contactRelationGrandchild
/// The framework's `CNLabelContactRelationGrandchildOrSiblingsChild`.
public let CNLabelContactRelationGrandchildOrSiblingsChild: String = Label.contactRelationGrandchildOrSiblingsChild
/// The framework's `CNLabelContactRelationGranddaughter`.
public let CNLabelContactRelationGranddaughter: String = Label.contactRelationGranddaughter
/// The framework's `CNLabelContactRelationGranddaughterDaughtersDaughter`.
public let CNLabelContactRelationGranddaughterDaughtersDaughter: String = Label
    .contactRelationGranddaughterDaughtersDaughter
/// The framework's `CNLabelContactRelationGranddaughterSonsDaughter`.
public let CNLabelContactRelationGranddaughterSonsDaughter: String = Label.contactRelationGranddaughterSonsDaughter
/// The framework's `CNLabelContactRelationGrandfather`.
public let CNLabelContactRelationGrandfather: String = Label.contactRelationGrandfather
/// The framework's `CNLabelContactRelationGrandfatherFathersFather`.
public let CNLabelContactRelationGrandfatherFathersFather: String = Label.contactRelationGrandfatherFathersFather
/// The framework's `CNLabelContactRelationGrandfatherMothersFather`.
public let CNLabelContactRelationGrandfatherMothersFather: String = Label.contactRelationGrandfatherMothersFather
/// The framework's `CNLabelContactRelationGrandmother`.
public let CNLabelContactRelationGrandmother: String = Label.contactRelationGrandmother
/// The framework's `CNLabelContactRelationGrandmotherFathersMother`.
public let CNLabelContactRelationGrandmotherFathersMother: String = Label.contactRelationGrandmotherFathersMother
/// The framework's `CNLabelContactRelationGrandmotherMothersMother`.
public let CNLabelContactRelationGrandmotherMothersMother: String = Label.contactRelationGrandmotherMothersMother
/// The framework's `CNLabelContactRelationGrandnephew`.
public let CNLabelContactRelationGrandnephew: String = Label.contactRelationGrandnephew
/// The framework's `CNLabelContactRelationGrandnephewBrothersGrandson`.
public let CNLabelContactRelationGrandnephewBrothersGrandson: String = Label.contactRelationGrandnephewBrothersGrandson
/// The framework's `CNLabelContactRelationGrandnephewSistersGrandson`.
public let CNLabelContactRelationGrandnephewSistersGrandson: String = Label.contactRelationGrandnephewSistersGrandson
/// The framework's `CNLabelContactRelationGrandniece`.
public let CNLabelContactRelationGrandniece: String = Label.contactRelationGrandniece
/// The framework's `CNLabelContactRelationGrandnieceBrothersGranddaughter`.
public let CNLabelContactRelationGrandnieceBrothersGranddaughter: String = Label
    .contactRelationGrandnieceBrothersGranddaughter
/// The framework's `CNLabelContactRelationGrandnieceSistersGranddaughter`.
public let CNLabelContactRelationGrandnieceSistersGranddaughter: String = Label
    .contactRelationGrandnieceSistersGranddaughter
/// The framework's `CNLabelContactRelationGrandparent`.
public let CNLabelContactRelationGrandparent: String = Label.contactRelationGrandparent
/// The framework's `CNLabelContactRelationGrandson`.
public let CNLabelContactRelationGrandson: String = Label.contactRelationGrandson
/// The framework's `CNLabelContactRelationGrandsonDaughtersSon`.
public let CNLabelContactRelationGrandsonDaughtersSon: String = Label.contactRelationGrandsonDaughtersSon
/// The framework's `CNLabelContactRelationGrandsonSonsSon`.
public let CNLabelContactRelationGrandsonSonsSon: String = Label.contactRelationGrandsonSonsSon
/// The framework's `CNLabelContactRelationGranduncle`.
public let CNLabelContactRelationGranduncle: String = Label.contactRelationGranduncle
/// The framework's `CNLabelContactRelationGreatGrandchild`.
public let CNLabelContactRelationGreatGrandchild: String = Label.contactRelationGreatGrandchild
/// The framework's `CNLabelContactRelationGreatGrandchildOrSiblingsGrandchild`.
public let CNLabelContactRelationGreatGrandchildOrSiblingsGrandchild: String = Label
    .contactRelationGreatGrandchildOrSiblingsGrandchild
/// The framework's `CNLabelContactRelationGreatGranddaughter`.
public let CNLabelContactRelationGreatGranddaughter: String = Label.contactRelationGreatGranddaughter
/// The framework's `CNLabelContactRelationGreatGrandfather`.
public let CNLabelContactRelationGreatGrandfather: String = Label.contactRelationGreatGrandfather
/// The framework's `CNLabelContactRelationGreatGrandmother`.
public let CNLabelContactRelationGreatGrandmother: String = Label.contactRelationGreatGrandmother
/// The framework's `CNLabelContactRelationGreatGrandparent`.
public let CNLabelContactRelationGreatGrandparent: String = Label.contactRelationGreatGrandparent
/// The framework's `CNLabelContactRelationGreatGrandson`.
public let CNLabelContactRelationGreatGrandson: String = Label.contactRelationGreatGrandson
/// The framework's `CNLabelContactRelationHusband`.
public let CNLabelContactRelationHusband: String = Label.contactRelationHusband
/// The framework's `CNLabelContactRelationMaleCousin`.
public let CNLabelContactRelationMaleCousin: String = Label.contactRelationMaleCousin
/// The framework's `CNLabelContactRelationMaleFriend`.
public let CNLabelContactRelationMaleFriend: String = Label.contactRelationMaleFriend
/// The framework's `CNLabelContactRelationMalePartner`.
public let CNLabelContactRelationMalePartner: String = Label.contactRelationMalePartner
/// The framework's `CNLabelContactRelationMotherInLaw`.
public let CNLabelContactRelationMotherInLaw: String = Label.contactRelationMotherInLaw
/// The framework's `CNLabelContactRelationMotherInLawHusbandsMother`.
public let CNLabelContactRelationMotherInLawHusbandsMother: String = Label.contactRelationMotherInLawHusbandsMother
/// The framework's `CNLabelContactRelationMotherInLawOrStepmother`.
public let CNLabelContactRelationMotherInLawOrStepmother: String = Label.contactRelationMotherInLawOrStepmother
/// The framework's `CNLabelContactRelationMotherInLawWifesMother`.
public let CNLabelContactRelationMotherInLawWifesMother: String = Label.contactRelationMotherInLawWifesMother
/// The framework's `CNLabelContactRelationNephew`.
public let CNLabelContactRelationNephew: String = Label.contactRelationNephew
/// The framework's `CNLabelContactRelationNephewBrothersSon`.
public let CNLabelContactRelationNephewBrothersSon: String = Label.contactRelationNephewBrothersSon
/// The framework's `CNLabelContactRelationNephewBrothersSonOrHusbandsSiblingsSon`.
public let CNLabelContactRelationNephewBrothersSonOrHusbandsSiblingsSon: String = Label
    .contactRelationNephewBrothersSonOrHusbandsSiblingsSon
/// The framework's `CNLabelContactRelationNephewOrCousin`.
public let CNLabelContactRelationNephewOrCousin: String = Label.contactRelationNephewOrCousin
/// The framework's `CNLabelContactRelationNephewSistersSon`.
public let CNLabelContactRelationNephewSistersSon: String = Label.contactRelationNephewSistersSon
/// The framework's `CNLabelContactRelationNephewSistersSonOrWifesSiblingsSon`.
public let CNLabelContactRelationNephewSistersSonOrWifesSiblingsSon: String = Label
    .contactRelationNephewSistersSonOrWifesSiblingsSon
/// The framework's `CNLabelContactRelationNiece`.
public let CNLabelContactRelationNiece: String = Label.contactRelationNiece
/// The framework's `CNLabelContactRelationNieceBrothersDaughter`.
public let CNLabelContactRelationNieceBrothersDaughter: String = Label.contactRelationNieceBrothersDaughter
/// The framework's `CNLabelContactRelationNieceBrothersDaughterOrHusbandsSiblingsDaughter`.
public let CNLabelContactRelationNieceBrothersDaughterOrHusbandsSiblingsDaughter: String = Label
    .contactRelationNieceBrothersDaughterOrHusbandsSiblingsDaughter
/// The framework's `CNLabelContactRelationNieceOrCousin`.
public let CNLabelContactRelationNieceOrCousin: String = Label.contactRelationNieceOrCousin
/// The framework's `CNLabelContactRelationNieceSistersDaughter`.
public let CNLabelContactRelationNieceSistersDaughter: String = Label.contactRelationNieceSistersDaughter
/// The framework's `CNLabelContactRelationNieceSistersDaughterOrWifesSiblingsDaughter`.
public let CNLabelContactRelationNieceSistersDaughterOrWifesSiblingsDaughter: String = Label
    .contactRelationNieceSistersDaughterOrWifesSiblingsDaughter
/// The framework's `CNLabelContactRelationParentInLaw`.
public let CNLabelContactRelationParentInLaw: String = Label.contactRelationParentInLaw
/// The framework's `CNLabelContactRelationParentsElderSibling`.
public let CNLabelContactRelationParentsElderSibling: String = Label.contactRelationParentsElderSibling
/// The framework's `CNLabelContactRelationParentsSibling`.
public let CNLabelContactRelationParentsSibling: String = Label.contactRelationParentsSibling
/// The framework's `CNLabelContactRelationParentsSiblingFathersElderSibling`.
public let CNLabelContactRelationParentsSiblingFathersElderSibling: String = Label
    .contactRelationParentsSiblingFathersElderSibling
/// The framework's `CNLabelContactRelationParentsSiblingFathersSibling`.
public let CNLabelContactRelationParentsSiblingFathersSibling: String = Label
    .contactRelationParentsSiblingFathersSibling
/// The framework's `CNLabelContactRelationParentsSiblingFathersYoungerSibling`.
public let CNLabelContactRelationParentsSiblingFathersYoungerSibling: String = Label
    .contactRelationParentsSiblingFathersYoungerSibling
/// The framework's `CNLabelContactRelationParentsSiblingMothersElderSibling`.
public let CNLabelContactRelationParentsSiblingMothersElderSibling: String = Label
    .contactRelationParentsSiblingMothersElderSibling
/// The framework's `CNLabelContactRelationParentsSiblingMothersSibling`.
public let CNLabelContactRelationParentsSiblingMothersSibling: String = Label
    .contactRelationParentsSiblingMothersSibling
/// The framework's `CNLabelContactRelationParentsSiblingMothersYoungerSibling`.
public let CNLabelContactRelationParentsSiblingMothersYoungerSibling: String = Label
    .contactRelationParentsSiblingMothersYoungerSibling
/// The framework's `CNLabelContactRelationParentsYoungerSibling`.
public let CNLabelContactRelationParentsYoungerSibling: String = Label.contactRelationParentsYoungerSibling
/// The framework's `CNLabelContactRelationSibling`.
public let CNLabelContactRelationSibling: String = Label.contactRelationSibling
/// The framework's `CNLabelContactRelationSiblingInLaw`.
public let CNLabelContactRelationSiblingInLaw: String = Label.contactRelationSiblingInLaw
/// The framework's `CNLabelContactRelationSiblingsChild`.
public let CNLabelContactRelationSiblingsChild: String = Label.contactRelationSiblingsChild
/// The framework's `CNLabelContactRelationSisterInLaw`.
public let CNLabelContactRelationSisterInLaw: String = Label.contactRelationSisterInLaw
/// The framework's `CNLabelContactRelationSisterInLawBrothersWife`.
public let CNLabelContactRelationSisterInLawBrothersWife: String = Label.contactRelationSisterInLawBrothersWife
/// The framework's `CNLabelContactRelationSisterInLawElderBrothersWife`.
public let CNLabelContactRelationSisterInLawElderBrothersWife: String = Label
    .contactRelationSisterInLawElderBrothersWife
/// The framework's `CNLabelContactRelationSisterInLawHusbandsBrothersWife`.
public let CNLabelContactRelationSisterInLawHusbandsBrothersWife: String = Label
    .contactRelationSisterInLawHusbandsBrothersWife
/// The framework's `CNLabelContactRelationSisterInLawHusbandsSister`.
public let CNLabelContactRelationSisterInLawHusbandsSister: String = Label.contactRelationSisterInLawHusbandsSister
/// The framework's `CNLabelContactRelationSisterInLawSpousesSister`.
public let CNLabelContactRelationSisterInLawSpousesSister: String = Label.contactRelationSisterInLawSpousesSister
/// The framework's `CNLabelContactRelationSisterInLawWifesBrothersWife`.
public let CNLabelContactRelationSisterInLawWifesBrothersWife: String = Label
    .contactRelationSisterInLawWifesBrothersWife
/// The framework's `CNLabelContactRelationSisterInLawWifesSister`.
public let CNLabelContactRelationSisterInLawWifesSister: String = Label.contactRelationSisterInLawWifesSister
/// The framework's `CNLabelContactRelationSisterInLawYoungerBrothersWife`.
public let CNLabelContactRelationSisterInLawYoungerBrothersWife: String = Label
    .contactRelationSisterInLawYoungerBrothersWife
/// The framework's `CNLabelContactRelationSonInLaw`.
public let CNLabelContactRelationSonInLaw: String = Label.contactRelationSonInLaw
/// The framework's `CNLabelContactRelationSonInLawOrBrotherInLaw`.
public let CNLabelContactRelationSonInLawOrBrotherInLaw: String = Label.contactRelationSonInLawOrBrotherInLaw
/// The framework's `CNLabelContactRelationSonInLawOrStepson`.
public let CNLabelContactRelationSonInLawOrStepson: String = Label.contactRelationSonInLawOrStepson
/// The framework's `CNLabelContactRelationStepbrother`.
public let CNLabelContactRelationStepbrother: String = Label.contactRelationStepbrother
/// The framework's `CNLabelContactRelationStepchild`.
public let CNLabelContactRelationStepchild: String = Label.contactRelationStepchild
/// The framework's `CNLabelContactRelationStepdaughter`.
public let CNLabelContactRelationStepdaughter: String = Label.contactRelationStepdaughter
/// The framework's `CNLabelContactRelationStepfather`.
public let CNLabelContactRelationStepfather: String = Label.contactRelationStepfather
/// The framework's `CNLabelContactRelationStepmother`.
public let CNLabelContactRelationStepmother: String = Label.contactRelationStepmother
/// The framework's `CNLabelContactRelationStepparent`.
public let CNLabelContactRelationStepparent: String = Label.contactRelationStepparent
/// The framework's `CNLabelContactRelationStepsister`.
public let CNLabelContactRelationStepsister: String = Label.contactRelationStepsister
/// The framework's `CNLabelContactRelationStepson`.
public let CNLabelContactRelationStepson: String = Label.contactRelationStepson
/// The framework's `CNLabelContactRelationTeacher`.
public let CNLabelContactRelationTeacher: String = Label.contactRelationTeacher
/// The framework's `CNLabelContactRelationUncle`.
public let CNLabelContactRelationUncle: String = Label.contactRelationUncle
/// The framework's `CNLabelContactRelationUncleFathersBrother`.
public let CNLabelContactRelationUncleFathersBrother: String = Label.contactRelationUncleFathersBrother
/// The framework's `CNLabelContactRelationUncleFathersElderBrother`.
public let CNLabelContactRelationUncleFathersElderBrother: String = Label.contactRelationUncleFathersElderBrother
/// The framework's `CNLabelContactRelationUncleFathersElderSistersHusband`.
public let CNLabelContactRelationUncleFathersElderSistersHusband: String = Label
    .contactRelationUncleFathersElderSistersHusband
/// The framework's `CNLabelContactRelationUncleFathersSistersHusband`.
public let CNLabelContactRelationUncleFathersSistersHusband: String = Label.contactRelationUncleFathersSistersHusband
/// The framework's `CNLabelContactRelationUncleFathersYoungerBrother`.
public let CNLabelContactRelationUncleFathersYoungerBrother: String = Label.contactRelationUncleFathersYoungerBrother
/// The framework's `CNLabelContactRelationUncleFathersYoungerSistersHusband`.
public let CNLabelContactRelationUncleFathersYoungerSistersHusband: String = Label
    .contactRelationUncleFathersYoungerSistersHusband
/// The framework's `CNLabelContactRelationUncleMothersBrother`.
public let CNLabelContactRelationUncleMothersBrother: String = Label.contactRelationUncleMothersBrother
/// The framework's `CNLabelContactRelationUncleMothersElderBrother`.
public let CNLabelContactRelationUncleMothersElderBrother: String = Label.contactRelationUncleMothersElderBrother
/// The framework's `CNLabelContactRelationUncleMothersSistersHusband`.
public let CNLabelContactRelationUncleMothersSistersHusband: String = Label.contactRelationUncleMothersSistersHusband
/// The framework's `CNLabelContactRelationUncleMothersYoungerBrother`.
public let CNLabelContactRelationUncleMothersYoungerBrother: String = Label.contactRelationUncleMothersYoungerBrother
/// The framework's `CNLabelContactRelationUncleParentsBrother`.
public let CNLabelContactRelationUncleParentsBrother: String = Label.contactRelationUncleParentsBrother
/// The framework's `CNLabelContactRelationUncleParentsElderBrother`.
public let CNLabelContactRelationUncleParentsElderBrother: String = Label.contactRelationUncleParentsElderBrother
/// The framework's `CNLabelContactRelationUncleParentsYoungerBrother`.
public let CNLabelContactRelationUncleParentsYoungerBrother: String = Label.contactRelationUncleParentsYoungerBrother
/// The framework's `CNLabelContactRelationWife`.
public let CNLabelContactRelationWife: String = Label.contactRelationWife
/// The framework's `CNLabelContactRelationYoungerBrother`.
public let CNLabelContactRelationYoungerBrother: String = Label.contactRelationYoungerBrother
/// The framework's `CNLabelContactRelationYoungerBrotherInLaw`.
public let CNLabelContactRelationYoungerBrotherInLaw: String = Label.contactRelationYoungerBrotherInLaw
/// The framework's `CNLabelContactRelationYoungerCousin`.
public let CNLabelContactRelationYoungerCousin: String = Label.contactRelationYoungerCousin
/// The framework's `CNLabelContactRelationYoungerCousinFathersBrothersDaughter`.
public let CNLabelContactRelationYoungerCousinFathersBrothersDaughter: String = Label
    .contactRelationYoungerCousinFathersBrothersDaughter
/// The framework's `CNLabelContactRelationYoungerCousinFathersBrothersSon`.
public let CNLabelContactRelationYoungerCousinFathersBrothersSon: String = Label
    .contactRelationYoungerCousinFathersBrothersSon
/// The framework's `CNLabelContactRelationYoungerCousinFathersSistersDaughter`.
public let CNLabelContactRelationYoungerCousinFathersSistersDaughter: String = Label
    .contactRelationYoungerCousinFathersSistersDaughter
/// The framework's `CNLabelContactRelationYoungerCousinFathersSistersSon`.
public let CNLabelContactRelationYoungerCousinFathersSistersSon: String = Label
    .contactRelationYoungerCousinFathersSistersSon
/// The framework's `CNLabelContactRelationYoungerCousinMothersBrothersDaughter`.
public let CNLabelContactRelationYoungerCousinMothersBrothersDaughter: String = Label
    .contactRelationYoungerCousinMothersBrothersDaughter
/// The framework's `CNLabelContactRelationYoungerCousinMothersBrothersSon`.
public let CNLabelContactRelationYoungerCousinMothersBrothersSon: String = Label
    .contactRelationYoungerCousinMothersBrothersSon
/// The framework's `CNLabelContactRelationYoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter`.
public let CNLabelContactRelationYoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter: String = Label
    .contactRelationYoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter
/// The framework's `CNLabelContactRelationYoungerCousinMothersSiblingsSonOrFathersSistersSon`.
public let CNLabelContactRelationYoungerCousinMothersSiblingsSonOrFathersSistersSon: String = Label
    .contactRelationYoungerCousinMothersSiblingsSonOrFathersSistersSon
/// The framework's `CNLabelContactRelationYoungerCousinMothersSistersDaughter`.
public let CNLabelContactRelationYoungerCousinMothersSistersDaughter: String = Label
    .contactRelationYoungerCousinMothersSistersDaughter
/// The framework's `CNLabelContactRelationYoungerCousinMothersSistersSon`.
public let CNLabelContactRelationYoungerCousinMothersSistersSon: String = Label
    .contactRelationYoungerCousinMothersSistersSon
/// The framework's `CNLabelContactRelationYoungerCousinParentsSiblingsDaughter`.
public let CNLabelContactRelationYoungerCousinParentsSiblingsDaughter: String = Label
    .contactRelationYoungerCousinParentsSiblingsDaughter
/// The framework's `CNLabelContactRelationYoungerCousinParentsSiblingsSon`.
public let CNLabelContactRelationYoungerCousinParentsSiblingsSon: String = Label
    .contactRelationYoungerCousinParentsSiblingsSon
/// The framework's `CNLabelContactRelationYoungerSibling`.
public let CNLabelContactRelationYoungerSibling: String = Label.contactRelationYoungerSibling
/// The framework's `CNLabelContactRelationYoungerSiblingInLaw`.
public let CNLabelContactRelationYoungerSiblingInLaw: String = Label.contactRelationYoungerSiblingInLaw
/// The framework's `CNLabelContactRelationYoungerSister`.
public let CNLabelContactRelationYoungerSister: String = Label.contactRelationYoungerSister
/// The framework's `CNLabelContactRelationYoungerSisterInLaw`.
public let CNLabelContactRelationYoungerSisterInLaw: String = Label.contactRelationYoungerSisterInLaw
/// The framework's `CNLabelContactRelationYoungestBrother`.
public let CNLabelContactRelationYoungestBrother: String = Label.contactRelationYoungestBrother
/// The framework's `CNLabelContactRelationYoungestSister`.
public let CNLabelContactRelationYoungestSister: String = Label.contactRelationYoungestSister
/// The framework's `CNLabelContactRelationGranddaughterOrNiece`.
public let CNLabelContactRelationGranddaughterOrNiece: String = Label.contactRelationGranddaughterOrNiece
/// The framework's `CNLabelContactRelationGrandsonOrNephew`.
public let CNLabelContactRelationGrandsonOrNephew: String = Label.contactRelationGrandsonOrNephew
